-- sysbench script: one SELECT per event reading `--keys` random rows of a sysbench table by
-- primary key, `SELECT id, k FROM sbtestN WHERE id IN (…)`, sent as text (an application
-- building an IN list). Rows per second = events per second × keys (keys may repeat; each
-- is read once). Run on the tables sysbench's oltp_read_write prepared:
--   sysbench bench/in_list.lua --mysql-socket=/tmp/shoal/router-4.sock --mysql-user=root \
--     --tables=4 --table-size=100000 --keys=100 --threads=8 --time=10 run
-- bench/compare.sh runs it beside MariaDB as the step "bench/in_list.lua+keys=100:8".
sysbench.cmdline.options = {
  tables = {"Number of tables", 4},
  table_size = {"Rows per table", 100000},
  keys = {"Keys per IN list", 10},
}

function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
end

function event()
  local keys = {}
  for i = 1, sysbench.opt.keys do
    keys[i] = sysbench.rand.uniform(1, sysbench.opt.table_size)
  end
  local n = sysbench.rand.uniform(1, sysbench.opt.tables)
  con:query(string.format("SELECT id, k FROM sbtest%d WHERE id IN (%s)", n,
                          table.concat(keys, ",")))
end

function thread_done()
  con:disconnect()
end
