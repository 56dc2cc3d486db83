-- sysbench script: one two-table join per event over the tables sysbench's oltp_read_write
-- prepared, sent as text. `--rows` random keys of sbtestA (the "customers") select themselves,
-- and each is joined to sbtestB (the "orders", another table) —
--   --shape=key    by primary key: ON o.id = c.id (MySQL's eq_ref; one row each)
--   --shape=index  by the secondary index k_1: ON o.k = c.id (ref; as many rows as share k)
-- Rows per second = events per second × rows (about that for `index`). Run as
--   sysbench bench/join.lua --mysql-socket=/tmp/shoal/router-4.sock --mysql-user=root \
--     --tables=4 --table-size=100000 --rows=10 --threads=8 --time=10 run
-- bench/compare.sh runs it beside MariaDB as the step "bench/join.lua+rows=10:8,32".
sysbench.cmdline.options = {
  tables = {"Number of tables", 4},
  table_size = {"Rows per table", 100000},
  rows = {"Keys of the first table per join", 10},
  shape = {"key (join by primary key) or index (join by k_1)", "key"},
}

function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
  local on = sysbench.opt.shape == "index" and "o.k = c.id" or "o.id = c.id"
  query = "SELECT c.id, c.k, o.id, o.c FROM sbtest%d c JOIN sbtest%d o ON " .. on ..
          " WHERE c.id IN (%s)"
end

function event()
  local keys = {}
  for i = 1, sysbench.opt.rows do
    keys[i] = sysbench.rand.uniform(1, sysbench.opt.table_size)
  end
  local a = sysbench.rand.uniform(1, sysbench.opt.tables)
  local b = a % sysbench.opt.tables + 1
  con:query(string.format(query, a, b, table.concat(keys, ",")))
end

function thread_done()
  con:disconnect()
end
