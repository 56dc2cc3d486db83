// The dictionary's data model: databases, tables, columns and indexes as the data nodes store
// them and every native client caches them. Plain values; copy freely. A table definition is
// immutable once published: DDL makes a new TableDef with a higher `version`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace shoal::schema {

// Column types and how each is stored in a packed row (row.h). Numbers are stable: they
// travel in native frames and DDL.
enum class ColumnType : uint8_t {
  kTinyInt = 1,     // int<1>, two's complement (or unsigned when ColumnDef::is_unsigned)
  kSmallInt = 2,    // int<2>
  kMediumInt = 3,   // int<4> holding a 24-bit value
  kInt = 4,         // int<4>
  kBigInt = 5,      // int<8>
  kFloat = 6,       // IEEE binary32
  kDouble = 7,      // IEEE binary64
  kDecimal = 8,     // variable: canonical text "-123.45" with exactly `scale` decimals
  kChar = 9,        // variable: UTF-8 bytes, trailing spaces stripped (MySQL's CHAR)
  kVarChar = 10,    // variable: UTF-8 bytes
  kBinary = 11,     // variable: bytes, padded with 0x00 to `length` on insert
  kVarBinary = 12,  // variable: bytes
  kText = 13,       // variable: UTF-8 bytes, at most 65535
  kBlob = 14,       // variable: bytes, at most 65535
  kDate = 15,       // int<4>: year * 512 + month * 32 + day (orders like the date)
  kTime = 16,       // int<8> signed microseconds, -838:59:59 … 838:59:59
  kDateTime = 17,   // int<8>: PackDateTime (orders like the value)
  kTimestamp = 18,  // int<8>: PackDateTime, in UTC
  kEnum = 19,       // int<2> unsigned: 1-based position in ColumnDef::elements (0: MySQL's '')
  kSet = 20,        // int<8> unsigned: bit i set when ColumnDef::elements[i] is a member
  kJson = 21,       // variable: the document as MySQL's canonical text (router/sql/json)
  kBit = 22,        // int<8> unsigned: BIT(length), length 1…64 bits
};
inline constexpr ColumnType kMaxColumnType = ColumnType::kBit;

// The MySQL spelling ("INT", "VARCHAR", …).
absl::string_view ColumnTypeName(ColumnType type);
// Bytes of a fixed-size type in a packed row; 0 for the variable-size ones.
int FixedSize(ColumnType type);
bool IsInteger(ColumnType type);
// The value bits of an integer type: 8, 16, 24 (MEDIUMINT, stored in 4 bytes), 32 or 64.
int IntegerBits(ColumnType type);
bool IsString(ColumnType type);  // the variable-size types: DECIMAL and the string types
// ENUM and SET: strings to the client, stored as their members' positions.
inline bool IsEnumOrSet(ColumnType type) {
  return type == ColumnType::kEnum || type == ColumnType::kSet;
}
// The types stored as an unsigned number whatever `is_unsigned` says: ENUM, SET, BIT.
inline bool IsUnsignedStorage(ColumnType type) {
  return IsEnumOrSet(type) || type == ColumnType::kBit;
}

// Packs a date and time so that integer order is chronological:
// ((((year * 13 + month) * 32 + day) * 24 + hour) * 60 + minute) * 60 + second, then * 10^6 +
// microsecond.
int64_t PackDateTime(int year, int month, int day, int hour, int minute, int second,
                     int microsecond);
struct DateTimeParts {
  int year, month, day, hour, minute, second, microsecond;
};
DateTimeParts UnpackDateTime(int64_t packed);

// How a CHAR, VARCHAR or TEXT column's values compare, in keys as everywhere (collation.h).
// Numbers are stable: they are stored in table definitions.
enum class Collation : uint8_t {
  kBinary = 0,           // byte for byte: MySQL's _bin collations, and definitions before format 4
  kCaseInsensitive = 1,  // the _ci collations: case and accents folded (text_fold.h)
};

struct ColumnDef {
  std::string name;
  ColumnType type = ColumnType::kInt;
  bool is_unsigned = false;
  uint32_t length = 0;    // CHAR/VARCHAR: characters; BINARY/VARBINARY: bytes
  uint8_t precision = 0;  // DECIMAL(precision, scale); fractional digits for TIME/DATETIME
  uint8_t scale = 0;
  bool nullable = true;
  bool auto_increment = false;
  // The default as a packed single-column value (row.h EncodeValue); nullopt: no default
  // (NULL when nullable).
  std::optional<std::string> default_value;
  // DEFAULT CURRENT_TIMESTAMP (DATETIME and TIMESTAMP only; default_value is then empty): a
  // row written without a value takes the writing statement's time at `precision` digits.
  bool default_now = false;
  // ON UPDATE CURRENT_TIMESTAMP (DATETIME and TIMESTAMP only): an UPDATE that changes some
  // other column's value and does not assign this one sets it to the statement's time.
  bool on_update_now = false;
  bool hidden = false;  // the hidden primary key NDB-style tables without one get
  // ENUM and SET: the members, in their declared order (MySQL compares and sorts by position).
  std::vector<std::string> elements;
  std::string comment;  // COMMENT '…'
  // CHAR, VARCHAR and TEXT only; the other types compare by their type whatever it says.
  Collation collation = Collation::kBinary;
};

// TINYTEXT … LONGTEXT and TINYBLOB … LONGBLOB as declared: the type's capacity in bytes (255,
// 65535, 16777215, 4294967295), kept in ColumnDef::length (0, as older definitions have it, is
// TEXT's). What the engine holds is 65535 bytes whatever the declaration.
inline uint32_t DeclaredBlobBytes(const ColumnDef& column) {
  return column.length == 0 ? 65535 : column.length;
}

// A BIT value as MySQL writes it in a definition: b'101' (b'0' for zero).
std::string BitLiteralText(uint64_t value);

// An ENUM's or SET's stored value as MySQL shows it: the member ('' for position 0 or one
// past the members), or a SET's members in declared order joined by commas.
std::string MemberText(const ColumnDef& column, uint64_t stored);

struct IndexDef {
  std::string name;          // "PRIMARY" for the primary key
  std::vector<int> columns;  // positions in TableDef::columns, in key order
  bool unique = false;
  bool primary = false;
  // Made by CREATE or ALTER TABLE for a foreign key's columns, which had none: as MySQL, it
  // goes when an index the user adds can serve the key instead.
  bool for_foreign_key = false;
};

// What a foreign key does to the child rows of a parent row that is deleted or whose
// referenced columns change. None given (kDefault) and NO ACTION act as RESTRICT (checked at
// once, as in InnoDB and NDB); they are kept apart because SHOW CREATE TABLE prints only the
// actions given.
enum class ReferenceAction : uint8_t { kDefault, kRestrict, kCascade, kSetNull, kNoAction };

// A FOREIGN KEY constraint of a child table: a row whose `columns` are all non-NULL must match
// a row of the parent table in `parent_columns`. The parent and its columns are named, not
// numbered: with foreign_key_checks off a child may name a parent created later, and a
// parent's columns move with its ALTERs.
struct ForeignKeyDef {
  std::string name;          // the constraint's name, unique in its database
  std::vector<int> columns;  // positions in the child's TableDef::columns
  std::string parent_database;
  std::string parent_table;
  std::vector<std::string> parent_columns;  // as many as `columns`, in the same order
  ReferenceAction on_delete = ReferenceAction::kDefault;
  ReferenceAction on_update = ReferenceAction::kDefault;
};

inline constexpr char kHiddenKeyColumn[] = "$PK";

// The copy a copying ALTER TABLE fills is named "#sql-alter-…" (as mysqld's "#sql-…"): native
// clients keep it out of their by-name lookups, so no SQL statement names or lists it.
inline constexpr char kAlterCopyPrefix[] = "#sql-alter-";

struct TableDef {
  uint32_t id = 0;       // stable for the table's life; never reused within a dictionary
  uint32_t version = 0;  // grows with every change of this table (TRUNCATE included)
  std::string database;
  std::string name;
  std::vector<ColumnDef> columns;
  // indexes[0] is always the primary key (unique, primary). A table created without one gets
  // a hidden BIGINT UNSIGNED column `$PK` (last column) filled from the auto-increment counter.
  std::vector<IndexDef> indexes;
  uint32_t partitions = 0;
  std::string comment;
  std::vector<ForeignKeyDef> foreign_keys;
  // The table's COLLATE: what its text columns that name neither a collation nor a charset
  // take, when created and when added by ALTER TABLE later.
  Collation collation = Collation::kCaseInsensitive;

  const IndexDef& primary_key() const { return indexes[0]; }
  bool has_hidden_key() const { return !columns.empty() && columns.back().hidden; }
  int auto_increment_column() const;  // -1 if none
  // Position of the column named `name` (case-insensitive, as MySQL), or -1.
  int FindColumn(absl::string_view name) const;
  int FindIndex(absl::string_view name) const;
};

// Read-backup (NDB's table option, set the same way: COMMENT="NDB_TABLE=READ_BACKUP=1"):
// committed reads may be served by any serving replica, the one on the reader's host first.
// Safe because a commit is acknowledged only once every replica has it (I7).
bool ReadBackup(const TableDef& table);

// Logged (the default): the table's commits go to the redo log and checkpoints, and survive a
// restart of every data node (docs/architecture.md, I8). NDB's non-logged tables, set the same
// way (COMMENT="NDB_TABLE=NOLOGGING=1"), live in memory only: replicated like any table, but
// empty after a system restart.
bool Logged(const TableDef& table);

// Checks a definition a client asks to create: names, types, lengths, keys, at most one
// AUTO_INCREMENT column which must be a key's first column. Adds the hidden primary key when
// there is none. Errors are InvalidArgument with the MySQL error code as a payload-free
// message prefix "<code>: <message>" (see dictionary error helpers in engine/api).
absl::Status ValidateAndComplete(TableDef* table);

// Whether rows stored under `before` are valid rows of `after` as they are, so that a table
// may change between them in place (ALTER TABLE without a copy): the same columns in the same
// order, each of the same type, signedness, nullability, precision, scale and collation (a
// collation orders the indexes and places keys; a CHAR, VARCHAR
// or VARBINARY may grow), the same AUTO_INCREMENT column and the same primary key. Names,
// defaults and secondary indexes may differ.
bool StoredAlike(const TableDef& before, const TableDef& after);

// Serialization for DDL frames and dictionary snapshots (little-endian, versioned). Decode
// never trusts its input.
void AppendTableDef(const TableDef& table, std::string* out);
absl::StatusOr<TableDef> ParseTableDef(absl::string_view* in);

// Hash of a packed primary key (row.h) of `table` in its collation form (collation.h: keys
// its collations hold equal hash alike), the same in every process: partition =
// KeyHash(table, key) % partitions.
uint32_t KeyHash(const TableDef& table, absl::string_view packed_key);
// The hash itself, of bytes as they are (xxHash32, seed 0).
uint32_t KeyHash(absl::string_view bytes);

}  // namespace shoal::schema
