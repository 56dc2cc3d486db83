package dev.shoal;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The schema as Connector/J's DatabaseMetaData describes it: the answers hbm2ddl=update reads
 * (getTables, getColumns, getPrimaryKeys, getImportedKeys, getIndexInfo) to decide what to
 * create, one line per table and per key, in a stable order.
 */
final class SchemaReport {
  private SchemaReport() {}

  static List<String> describe(Connection c) throws SQLException {
    DatabaseMetaData md = c.getMetaData();
    String catalog = c.getCatalog();
    List<String> tables = new ArrayList<>();
    try (ResultSet rs = md.getTables(catalog, null, "%", new String[] {"TABLE"})) {
      while (rs.next()) tables.add(rs.getString("TABLE_NAME"));
    }
    tables.sort(null);
    List<String> lines = new ArrayList<>();
    for (String table : tables) {
      lines.add(table + ": " + String.join(", ", columns(md, catalog, table)));
      lines.add(table + " primary key: " + primaryKey(md, catalog, table));
      for (String fk : foreignKeys(md, catalog, table)) lines.add(table + " foreign key: " + fk);
      for (String index : indexes(md, catalog, table)) lines.add(table + " index: " + index);
    }
    return lines;
  }

  /** "name TYPE(size[,digits]) [NOT NULL] [AUTO_INCREMENT] [DEFAULT x]" in ordinal order. */
  private static List<String> columns(DatabaseMetaData md, String catalog, String table)
      throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = md.getColumns(catalog, null, table, "%")) {
      while (rs.next()) {
        StringBuilder col = new StringBuilder();
        col.append(rs.getString("COLUMN_NAME")).append(' ').append(rs.getString("TYPE_NAME"));
        col.append('(').append(rs.getInt("COLUMN_SIZE"));
        int digits = rs.getInt("DECIMAL_DIGITS");
        if (!rs.wasNull()) col.append(',').append(digits);
        col.append(')');
        if ("NO".equals(rs.getString("IS_NULLABLE"))) col.append(" NOT NULL");
        if ("YES".equals(rs.getString("IS_AUTOINCREMENT"))) col.append(" AUTO_INCREMENT");
        String def = rs.getString("COLUMN_DEF");
        if (def != null) col.append(" DEFAULT ").append(def);
        out.add(col.toString());
      }
    }
    return out;
  }

  private static String primaryKey(DatabaseMetaData md, String catalog, String table)
      throws SQLException {
    Map<Integer, String> cols = new TreeMap<>();
    try (ResultSet rs = md.getPrimaryKeys(catalog, null, table)) {
      while (rs.next()) cols.put(rs.getInt("KEY_SEQ"), rs.getString("COLUMN_NAME"));
    }
    return cols.isEmpty() ? "none" : String.join(", ", cols.values());
  }

  /** "FK_NAME (col, ...) -> table (col, ...) on update R on delete R", by name. */
  private static List<String> foreignKeys(DatabaseMetaData md, String catalog, String table)
      throws SQLException {
    Map<String, List<String[]>> byName = new TreeMap<>();
    try (ResultSet rs = md.getImportedKeys(catalog, null, table)) {
      while (rs.next()) {
        byName.computeIfAbsent(rs.getString("FK_NAME"), k -> new ArrayList<>()).add(new String[] {
          rs.getString("KEY_SEQ"), rs.getString("FKCOLUMN_NAME"), rs.getString("PKTABLE_NAME"),
          rs.getString("PKCOLUMN_NAME"), rule(rs.getShort("UPDATE_RULE")),
          rule(rs.getShort("DELETE_RULE"))
        });
      }
    }
    List<String> out = new ArrayList<>();
    byName.forEach((name, parts) -> {
      parts.sort((a, b) -> Integer.compare(Integer.parseInt(a[0]), Integer.parseInt(b[0])));
      List<String> from = new ArrayList<>();
      List<String> to = new ArrayList<>();
      for (String[] p : parts) {
        from.add(p[1]);
        to.add(p[3]);
      }
      String[] first = parts.get(0);
      out.add(name + " (" + String.join(", ", from) + ") -> " + first[2] + " ("
          + String.join(", ", to) + ") on update " + first[4] + " on delete " + first[5]);
    });
    return out;
  }

  private static String rule(short rule) {
    switch (rule) {
      case DatabaseMetaData.importedKeyCascade: return "CASCADE";
      case DatabaseMetaData.importedKeyRestrict: return "RESTRICT";
      case DatabaseMetaData.importedKeySetNull: return "SET NULL";
      case DatabaseMetaData.importedKeyNoAction: return "NO ACTION";
      case DatabaseMetaData.importedKeySetDefault: return "SET DEFAULT";
      default: return "rule " + rule;
    }
  }

  /** "NAME [UNIQUE] (col, ...)", by name. */
  private static List<String> indexes(DatabaseMetaData md, String catalog, String table)
      throws SQLException {
    Map<String, Map<Integer, String>> cols = new TreeMap<>();
    Map<String, Boolean> unique = new TreeMap<>();
    try (ResultSet rs = md.getIndexInfo(catalog, null, table, false, false)) {
      while (rs.next()) {
        String name = rs.getString("INDEX_NAME");
        if (name == null) continue; // a statistics row
        unique.put(name, !rs.getBoolean("NON_UNIQUE"));
        cols.computeIfAbsent(name, k -> new TreeMap<>())
            .put(rs.getInt("ORDINAL_POSITION"), rs.getString("COLUMN_NAME"));
      }
    }
    List<String> out = new ArrayList<>();
    cols.forEach((name, c) -> out.add(
        name + (unique.get(name) ? " UNIQUE" : "") + " (" + String.join(", ", c.values()) + ")"));
    return out;
  }
}
