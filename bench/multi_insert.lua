-- sysbench script: one multi-row INSERT per event, `--rows` new rows in a sysbench table
-- (id from AUTO_INCREMENT, k, c and pad as sysbench fills them), sent as text, as a loader or
-- an ORM's batch does. Rows per second = events per second × rows. The tables grow: run it
-- after the steps that read them.
--   sysbench bench/multi_insert.lua --mysql-socket=/tmp/shoal/router-4.sock --mysql-user=root \
--     --tables=4 --rows=10 --threads=1 --time=10 run
-- bench/compare.sh runs it beside MariaDB as the step "bench/multi_insert.lua+rows=10:1,8".
sysbench.cmdline.options = {
  tables = {"Number of tables", 4},
  table_size = {"Rows per table (unused; accepted as the other scripts take it)", 100000},
  rows = {"Rows per INSERT", 10},
}

local c_template = "###########-###########-###########-###########-###########-" ..
    "###########-###########-###########-###########-###########"
local pad_template = "###########-###########-###########-###########-###########"

function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
end

function event()
  local values = {}
  for i = 1, sysbench.opt.rows do
    values[i] = string.format("(%d, '%s', '%s')", sysbench.rand.default(1, 1000000),
                              sysbench.rand.string(c_template),
                              sysbench.rand.string(pad_template))
  end
  local n = sysbench.rand.uniform(1, sysbench.opt.tables)
  con:query(string.format("INSERT INTO sbtest%d (k, c, pad) VALUES %s", n,
                          table.concat(values, ",")))
end

function thread_done()
  con:disconnect()
end
