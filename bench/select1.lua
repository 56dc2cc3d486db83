-- sysbench script: `SELECT 1` through a server-side prepared statement, one per event. Measures
-- the MySQL front end alone (protocol, session, no storage).
--   sysbench bench/select1.lua --mysql-socket=/tmp/shoal/router-4.sock --mysql-user=root \
--     --threads=8 --time=10 run
function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
  stmt = con:prepare("SELECT 1")
end

function event()
  stmt:execute()
end

function thread_done()
  stmt:close()
  con:disconnect()
end
