-- The search text also leaves out how a card or a calendar wrote what Neurons rewrites
-- (attrs.vcard_written, attrs.ical_written: its version, PRODID, and its lines as written). They
-- repeat what the item says in another form, and the other program's name ("-//Apple Inc.//iOS")
-- is no word anyone searches for: kept only to write the item back as it came.
ALTER TABLE neurons DROP COLUMN tsv;  -- and its index, neurons_tsv
ALTER TABLE neurons ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
    to_tsvector('english', left(body, 100000))
    || jsonb_to_tsvector(
        'simple',
        jsonb_set(
            attrs - 'due_at' - 'rrule' - 'done_at' - 'snoozed_until' - 'notified_at' - 'photo'
                  - 'vcard_written' - 'ical_written',
            '{vcard_extra}',
            jsonb_path_query_array(
                attrs,
                '$.vcard_extra[*] ? (!(@ like_regex "^[^:]*(ENCODING=B|:DATA:)" flag "i"))'
            )
        ),
        '["string"]'
    )
) STORED;
CREATE INDEX neurons_tsv ON neurons USING gin (tsv);
