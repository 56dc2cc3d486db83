package dev.shoal;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One scripted JDBC session against a MySQL server through Connector/J, the way applications
 * use it; exits non-zero on any surprise. Used by the integration tests against a Shoal router.
 *
 * <p>Usage: ShoalClient jdbc-url user password [--bad-password | --expect-error N | --tls |
 * --expect-tls-failure]
 *
 * <p>--bad-password and --expect-error N expect the login to be refused with 1045 or N. --tls
 * (with a URL that asks for TLS: sslMode=VERIFY_CA or VERIFY_IDENTITY, a truststore of the
 * server's CA in trustCertificateKeyStoreUrl, a client certificate in
 * clientCertificateKeyStoreUrl when the account needs one; tlsVersions=TLSv1.2 for that
 * version alone) runs the same session, checks that the server says it is TLS 1.2 or 1.3
 * (Ssl_version, Ssl_cipher) and sends a value of more than 16 MiB and reads it back.
 * --expect-tls-failure expects the connect to fail on the server's certificate (a truststore
 * of another CA, a host name the certificate does not name).
 *
 * <p>or: ShoalClient types jdbc-url user password table (every column type; see TypesCheck)
 */
public final class ShoalClient {
  private static void check(boolean ok, String what) {
    if (!ok) {
      System.err.println("FAIL: " + what);
      System.exit(1);
    }
  }

  private static long selectLong(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      check(rs.next(), sql + ": no row");
      return rs.getLong(1);
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("types")) {
      System.exit(TypesCheck.run(java.util.Arrays.copyOfRange(args, 1, args.length)));
    }
    String url = args[0];
    String user = args[1];
    String password = args[2];
    String mode = args.length > 3 ? args[3] : "";
    int expectedError = mode.equals("--bad-password") ? 1045 : 0;
    if (mode.equals("--expect-error")) {
      expectedError = Integer.parseInt(args[4]);
    }
    if (expectedError != 0) {
      try (Connection c = DriverManager.getConnection(url, user, password)) {
        check(false, "login succeeded where " + expectedError + " was expected");
      } catch (SQLException e) {
        check(e.getErrorCode() == expectedError,
            "expected " + expectedError + ", got " + e.getErrorCode() + " " + e);
        System.out.println("refused: " + e.getMessage());
      }
      return;
    }
    if (mode.equals("--expect-tls-failure")) {
      try (Connection c = DriverManager.getConnection(url, user, password)) {
        check(false, "connected although the server's certificate should have been refused");
      } catch (SQLException e) {
        Throwable refusal = certificateRefusal(e);
        if (refusal == null) {
          e.printStackTrace();
        }
        check(refusal != null, "expected the server's certificate to be refused, got " + e);
        System.out.println("refused: " + refusal);
      }
      return;
    }
    try (Connection c = DriverManager.getConnection(url, user, password);
        Statement st = c.createStatement()) {
      check(c.isValid(5), "isValid");
      check(selectLong(st, "SELECT 1") == 1, "SELECT 1");
      try (PreparedStatement ps = c.prepareStatement("SELECT ? + 1")) {
        ps.setInt(1, 41);
        try (ResultSet rs = ps.executeQuery()) {
          check(rs.next() && rs.getLong(1) == 42, "SELECT ? + 1");
        }
      }
      try (ResultSet rs = st.executeQuery("SELECT @@version")) {
        check(rs.next() && rs.getString(1).startsWith("8.0."), "SELECT @@version");
        System.out.println("ok: version " + rs.getString(1));
      }
      st.execute("SET NAMES utf8mb4");
      c.setAutoCommit(false);
      c.commit();
      c.setAutoCommit(true);
      try {
        st.execute("SELEKT 1");
        check(false, "a syntax error went unnoticed");
      } catch (SQLException e) {
        check(e.getErrorCode() == 1064, "expected 1064, got " + e.getErrorCode());
      }
      check(selectLong(st, "SELECT 2") == 2, "the connection survives an error");
      if (url.contains("allowMultiQueries=true")) {
        check(st.execute("SELECT 1; SELECT 'two'"), "multi-statement: first result");
        try (ResultSet rs = st.getResultSet()) {
          check(rs.next() && rs.getLong(1) == 1, "multi-statement: first result set");
        }
        check(st.getMoreResults(), "multi-statement: second result");
        try (ResultSet rs = st.getResultSet()) {
          check(rs.next() && rs.getString(1).equals("two"), "multi-statement: second result set");
        }
      }
      checkMetaData(c, st);
      if (mode.equals("--tls")) {
        String version = status(st, "Ssl_version");
        String cipher = status(st, "Ssl_cipher");
        check((version.equals("TLSv1.2") || version.equals("TLSv1.3")) && !cipher.isEmpty(),
            "the session's TLS: Ssl_version '" + version + "', Ssl_cipher '" + cipher + "'");
        int size = checkBigValue(c);
        System.out.println(
            "ok: tls " + version + " " + cipher + " (a " + size + "-byte value each way)");
      }
    }
  }

  /**
   * 17,000,000 bytes, not all alike, as a parameter and back: MySQL packets split at 0xFFFFFF
   * bytes, across many TLS records each way. Returns the size.
   */
  private static int checkBigValue(Connection c) throws SQLException {
    StringBuilder b = new StringBuilder();
    for (int i = 0; b.length() < 17_000_000; ++i) {
      b.append(String.format("%08x", i));
    }
    String big = b.substring(0, 17_000_000);
    try (PreparedStatement ps = c.prepareStatement("SELECT ? AS payload")) {
      ps.setString(1, big);
      try (ResultSet rs = ps.executeQuery()) {
        check(rs.next() && big.equals(rs.getString(1)), "a " + big.length() + "-byte value");
      }
    }
    return big.length();
  }

  private static String status(Statement st, String name) throws SQLException {
    try (ResultSet rs = st.executeQuery("SHOW STATUS LIKE '" + name + "'")) {
      check(rs.next(), "SHOW STATUS LIKE '" + name + "': no row");
      return rs.getString(2);
    }
  }

  /**
   * The TLS handshake's failure to verify the server among the causes of a failed connect —
   * JSSE's certificate path checks or Connector/J's host name check — or null if it failed
   * otherwise.
   */
  private static Throwable certificateRefusal(SQLException e) {
    boolean handshake = false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      handshake |= t instanceof javax.net.ssl.SSLHandshakeException;
      if (handshake && (t instanceof java.security.cert.CertificateException
          || t instanceof java.security.cert.CertPathValidatorException
          || t instanceof java.security.cert.CertPathBuilderException)) {
        return t;
      }
    }
    return null;
  }

  /**
   * DatabaseMetaData, as Java tools (DBeaver, IDEs, Hibernate's schema validation) list a
   * schema: getTables and getColumns query information_schema with CASE and LIKE.
   */
  private static void checkMetaData(Connection c, Statement st) throws SQLException {
    st.execute("CREATE DATABASE IF NOT EXISTS jdbc_meta");
    st.execute(
        "CREATE TABLE IF NOT EXISTS jdbc_meta.widget (id INT PRIMARY KEY, name VARCHAR(30) NOT"
            + " NULL, price DECIMAL(8,2))");
    java.sql.DatabaseMetaData meta = c.getMetaData();
    boolean found = false;
    try (ResultSet rs = meta.getTables("jdbc_meta", null, "%", new String[] {"TABLE"})) {
      while (rs.next()) {
        found |= rs.getString("TABLE_NAME").equals("widget")
            && rs.getString("TABLE_TYPE").equals("TABLE");
      }
    }
    check(found, "DatabaseMetaData.getTables lists jdbc_meta.widget as a TABLE");
    StringBuilder columns = new StringBuilder();
    try (ResultSet rs = meta.getColumns("jdbc_meta", null, "widget", "%")) {
      while (rs.next()) {
        columns.append(rs.getString("COLUMN_NAME")).append(':').append(rs.getString("TYPE_NAME"))
            .append(':').append(rs.getInt("NULLABLE")).append(' ');
      }
    }
    check(columns.toString().equals("id:INT:0 name:VARCHAR:0 price:DECIMAL:1 "),
        "DatabaseMetaData.getColumns: " + columns);
    try (ResultSet rs = meta.getPrimaryKeys("jdbc_meta", null, "widget")) {
      check(rs.next() && rs.getString("COLUMN_NAME").equals("id"), "getPrimaryKeys");
    }
    System.out.println("ok: DatabaseMetaData lists tables and columns: " + columns);
    st.execute(
        "CREATE TABLE IF NOT EXISTS jdbc_meta.part (id INT PRIMARY KEY, widget_id INT NOT NULL,"
            + " KEY k_widget (widget_id))");
    StringBuilder indexes = new StringBuilder();
    try (ResultSet rs = meta.getIndexInfo("jdbc_meta", null, "part", false, false)) {
      while (rs.next()) {
        indexes.append(rs.getString("INDEX_NAME")).append(':').append(rs.getString("COLUMN_NAME"))
            .append(':').append(rs.getBoolean("NON_UNIQUE")).append(' ');
      }
    }
    check(indexes.toString().equals("PRIMARY:id:false k_widget:widget_id:true "),
        "DatabaseMetaData.getIndexInfo: " + indexes);
    System.out.println("ok: DatabaseMetaData.getIndexInfo: " + indexes);
    checkJoin(c, st);
    st.execute("DROP DATABASE jdbc_meta");
  }

  /** A join with a parameter, prepared (server-side when the URL asks for it) and run twice. */
  private static void checkJoin(Connection c, Statement st) throws SQLException {
    st.execute("INSERT INTO jdbc_meta.widget VALUES (1, 'bolt', 0.25), (2, 'nut', 0.10)");
    st.execute("INSERT INTO jdbc_meta.part VALUES (10, 1), (11, 1), (12, 2)");
    String sql =
        "SELECT w.name, COUNT(p.id) AS parts FROM jdbc_meta.widget w JOIN jdbc_meta.part p"
            + " ON p.widget_id = w.id WHERE w.id = ? GROUP BY w.name";
    StringBuilder seen = new StringBuilder();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int id = 1; id <= 2; ++id) {
        ps.setInt(1, id);
        try (ResultSet rs = ps.executeQuery()) {
          check(rs.next(), "join: no row for widget " + id);
          check(rs.getMetaData().getColumnLabel(2).equals("parts"), "join: column label");
          seen.append(rs.getString(1)).append('=').append(rs.getLong(2)).append(' ');
          check(!rs.next(), "join: one row per widget");
        }
      }
    }
    check(seen.toString().equals("bolt=2 nut=1 "), "join: " + seen);
    System.out.println("ok: a prepared join: " + seen);
  }
}
