-- sysbench script: oltp_point_select through a view. Each event is one prepared
-- `SELECT c FROM <view> WHERE id = ?` with a random key of a random table, where the view of
-- sbtestN is, by --shape,
--   plain   SELECT id, k, c, pad FROM sbtestN              (merged: a key lookup)
--   filter  SELECT id, k, c, pad FROM sbtestN WHERE k > 0  (merged too, its condition ANDed)
--   table   no view: sbtestN itself, to compare with
-- Each thread makes the views it reads (CREATE OR REPLACE VIEW sbview_<shape>_N) before it
-- starts. Run as
--   sysbench bench/view_select.lua --mysql-socket=/tmp/shoal/router-4.sock --mysql-user=root \
--     --tables=4 --table-size=100000 --shape=plain --threads=8 --time=10 run
-- or beside MariaDB: SHOAL_COMPARE_STEPS="bench/view_select.lua+shape=plain:8" bench/compare.sh
sysbench.cmdline.options = {
  tables = {"Number of tables", 4},
  table_size = {"Rows per table", 100000},
  shape = {"plain, filter or table", "plain"},
}

function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
  stmts = {}
  for t = 1, sysbench.opt.tables do
    local name = string.format("sbtest%d", t)
    if sysbench.opt.shape ~= "table" then
      local where = sysbench.opt.shape == "filter" and " WHERE k > 0" or ""
      name = string.format("sbview_%s_%d", sysbench.opt.shape, t)
      con:query(string.format("CREATE OR REPLACE VIEW %s AS SELECT id, k, c, pad FROM sbtest%d%s",
                              name, t, where))
    end
    stmts[t] = con:prepare(string.format("SELECT c FROM %s WHERE id = ?", name))
    params = params or {}
    params[t] = stmts[t]:bind_create(sysbench.sql.type.INT)
    stmts[t]:bind_param(params[t])
  end
end

function event()
  local t = sysbench.rand.uniform(1, sysbench.opt.tables)
  params[t]:set(sysbench.rand.default(1, sysbench.opt.table_size))
  stmts[t]:execute()
end

function thread_done()
  for t = 1, sysbench.opt.tables do stmts[t]:close() end
  con:disconnect()
end
