-- Row-level security: a second wall behind the owner filter that every query carries. The store
-- names the transaction's owner in neurons.device_id or neurons.user_id (set_config(..., true),
-- so it ends with the transaction); a row of any other owner is then invisible and cannot be
-- written. Work that spans owners (filling vectors, reindex, the store check, id clashes on
-- import) names neurons.scope = 'all' for its transaction only. Superusers and BYPASSRLS roles
-- skip every policy: on a server, connect as a role that has neither (`neurons doctor` says).
ALTER TABLE neurons ENABLE ROW LEVEL SECURITY;
ALTER TABLE neurons FORCE ROW LEVEL SECURITY;
ALTER TABLE neurons_edges ENABLE ROW LEVEL SECURITY;
ALTER TABLE neurons_edges FORCE ROW LEVEL SECURITY;

CREATE POLICY neurons_device ON neurons
    USING (device_id = nullif(current_setting('neurons.device_id', true), '')::uuid);
CREATE POLICY neurons_user ON neurons
    USING (user_id = nullif(current_setting('neurons.user_id', true), '')::uuid);
CREATE POLICY neurons_all ON neurons
    USING (current_setting('neurons.scope', true) = 'all');

CREATE POLICY edges_device ON neurons_edges
    USING (device_id = nullif(current_setting('neurons.device_id', true), '')::uuid);
CREATE POLICY edges_user ON neurons_edges
    USING (user_id = nullif(current_setting('neurons.user_id', true), '')::uuid);
CREATE POLICY edges_all ON neurons_edges
    USING (current_setting('neurons.scope', true) = 'all');
