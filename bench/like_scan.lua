-- sysbench script: one SELECT per event that reads a whole sysbench table and keeps the rows
-- whose `c` (11 groups of 11 random digits) holds two random digits,
-- `SELECT COUNT(*) FROM sbtestN WHERE c LIKE '%42%'`, sent as text: the router checks LIKE on
-- every row. Rows checked per second = events per second × table_size. Run on the tables
-- sysbench's oltp_read_write prepared:
--   sysbench bench/like_scan.lua --mysql-socket=/tmp/shoal/router-4.sock --mysql-user=root \
--     --tables=4 --table-size=10000 --threads=8 --time=10 run
-- bench/compare.sh runs it beside MariaDB as the step "bench/like_scan.lua:8".
sysbench.cmdline.options = {
  tables = {"Number of tables", 4},
  table_size = {"Rows per table", 100000},
}

function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
end

function event()
  local n = sysbench.rand.uniform(1, sysbench.opt.tables)
  con:query(string.format("SELECT COUNT(*) FROM sbtest%d WHERE c LIKE '%%%02d%%'", n,
                          sysbench.rand.uniform(0, 99)))
end

function thread_done()
  con:disconnect()
end
