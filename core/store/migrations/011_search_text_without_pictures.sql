-- The search text leaves out pictures and other inline binary: a contact's photo (attrs.photo, a
-- data: URI of up to 2 MB of base64) and the inline LOGO, SOUND or KEY lines a card keeps in
-- attrs.vcard_extra. Their base64 is no word anyone searches for, and an ~800 KB photo made the
-- tsvector longer than its 1 MB limit, failing the insert (and with it a whole import).
ALTER TABLE neurons DROP COLUMN tsv;  -- and its index, neurons_tsv
ALTER TABLE neurons ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
    to_tsvector('english', left(body, 100000))
    || jsonb_to_tsvector(
        'simple',
        jsonb_set(
            attrs - 'due_at' - 'rrule' - 'done_at' - 'snoozed_until' - 'notified_at' - 'photo',
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
