-- sysbench script: a new connection per event — connect (and log in), `SELECT 1`, disconnect.
-- Measures what a connection costs the router (with --mysql-ssl=on, the TLS handshake too).
--   sysbench bench/connect.lua --mysql-host=127.0.0.1 --mysql-port=3306 --mysql-user=root \
--     --threads=4 --time=10 run
function thread_init()
  drv = sysbench.sql.driver()
end

function event()
  local con = drv:connect()
  con:query("SELECT 1")
  con:disconnect()
end
