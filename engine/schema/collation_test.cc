// The _ci collation as keys see it: comparisons, folded text, a key's collation form and
// the partition hash it gives.
#include "engine/schema/collation.h"

#include <string>

#include "engine/schema/row.h"
#include "gtest/gtest.h"

namespace shoal::schema {
namespace {

ColumnDef Text(std::string name, ColumnType type, Collation collation) {
  ColumnDef c;
  c.name = std::move(name);
  c.type = type;
  c.length = 40;
  c.collation = collation;
  return c;
}

// CREATE TABLE t (name VARCHAR(40) [COLLATE], id INT, code VARCHAR(40) COLLATE utf8mb4_bin,
// PRIMARY KEY (name, id), UNIQUE KEY (code)).
TableDef People(Collation name_collation) {
  TableDef t;
  t.name = "people";
  t.columns = {Text("name", ColumnType::kVarChar, name_collation),
               Text("id", ColumnType::kInt, Collation::kBinary),
               Text("code", ColumnType::kVarChar, Collation::kBinary)};
  IndexDef pk;
  pk.name = "PRIMARY";
  pk.columns = {0, 1};
  pk.primary = pk.unique = true;
  IndexDef code;
  code.name = "code";
  code.columns = {2};
  code.unique = true;
  t.indexes = {pk, code};
  t.partitions = 8;
  return t;
}

std::string Key(const TableDef& t, absl::string_view name, int id) {
  RowWriter w;
  w.BeginKey();
  w.Bytes(name);
  w.Int(t.columns[1], id);
  return std::string(w.view());
}

TEST(CollationTest, CaseDoesNotCountSpacesDo) {
  EXPECT_EQ(CompareFoldedText("Ada", "ada"), 0);
  EXPECT_LT(CompareFoldedText("ADA", "ada "), 0);  // NO PAD, as utf8mb4_0900_ai_ci
  EXPECT_LT(CompareFoldedText("ada", "adam"), 0);
  EXPECT_GT(CompareFoldedText("Bob", "alice"), 0);          // bytes would put 'B' first
  EXPECT_LT(CompareFoldedText("_x", "ax"), 0);              // lower case: '_' (0x5F) before 'a'
  EXPECT_NE(CompareFoldedText(" ada", "ada"), 0);           // leading spaces count
  EXPECT_EQ(CompareFoldedText("\xC3\xA9", "\xC3\x89"), 0);  // é / É
  std::string folded;
  AppendFoldedText("Ada Lovelace ", &folded);
  EXPECT_EQ(folded, "ada lovelace ");
}

TEST(CollationTest, OnlyCharacterColumnsOfACiCollationFold) {
  EXPECT_TRUE(FoldsCase(Text("a", ColumnType::kChar, Collation::kCaseInsensitive)));
  EXPECT_TRUE(FoldsCase(Text("a", ColumnType::kText, Collation::kCaseInsensitive)));
  EXPECT_FALSE(FoldsCase(Text("a", ColumnType::kVarChar, Collation::kBinary)));
  EXPECT_FALSE(FoldsCase(Text("a", ColumnType::kVarBinary, Collation::kCaseInsensitive)));
  EXPECT_FALSE(FoldsCase(Text("a", ColumnType::kJson, Collation::kCaseInsensitive)));
  ColumnDef ci = Text("a", ColumnType::kVarChar, Collation::kCaseInsensitive);
  EXPECT_EQ(CompareField(ci, "Ada", "aDA"), 0);
  ColumnDef bin = Text("a", ColumnType::kVarChar, Collation::kBinary);
  EXPECT_LT(CompareField(bin, "Ada", "ada"), 0);
}

TEST(CollationTest, KeysACollationHoldsEqualShareOneFormAndOnePartition) {
  const TableDef t = People(Collation::kCaseInsensitive);
  EXPECT_TRUE(IndexFoldsCase(t, 0));
  EXPECT_FALSE(IndexFoldsCase(t, 1));
  const std::string a = Key(t, "Ada Lovelace", 7), b = Key(t, "ADA LOVELACE", 7);
  std::string sa, sb;
  EXPECT_NE(a, b);
  EXPECT_EQ(KeyForm(t, 0, a, &sa), KeyForm(t, 0, b, &sb));
  EXPECT_EQ(KeyForm(t, 0, a, &sa), Key(t, "ada lovelace", 7));
  EXPECT_NE(KeyForm(t, 0, a, &sa), KeyForm(t, 0, Key(t, "Ada Lovelace", 8), &sb));
  EXPECT_NE(KeyForm(t, 0, a, &sa), KeyForm(t, 0, Key(t, "Ada Lovelace ", 7), &sb));
  EXPECT_EQ(KeyHash(t, a), KeyHash(t, b));
  // Accents too, and the form is shorter than the key: "José Müller" → "jose muller".
  const std::string accented = Key(t, "Jos\xC3\xA9 M\xC3\xBCller", 7);
  EXPECT_EQ(KeyForm(t, 0, accented, &sa), KeyForm(t, 0, Key(t, "JOSE MULLER", 7), &sb));
  EXPECT_EQ(KeyForm(t, 0, accented, &sa), Key(t, "jose muller", 7));
  EXPECT_EQ(KeyHash(t, accented), KeyHash(t, Key(t, "jose muller", 7)));
  // Folding a form changes nothing.
  std::string form(KeyForm(t, 0, a, &sa)), again;
  EXPECT_EQ(KeyForm(t, 0, form, &again), form);
  // A range's bound names a prefix of the index's columns.
  RowWriter w;
  w.BeginKey();
  w.Bytes("ADA");
  std::string prefix(w.view()), folded;
  const uint16_t columns[] = {0, 1};
  ASSERT_TRUE(FoldKey(t.columns, columns, prefix, &folded));
  EXPECT_EQ(folded.substr(2), "ada");
  // Malformed: a length past the end.
  EXPECT_FALSE(FoldKey(t.columns, columns,
                       std::string("\x09\x00"
                                   "ab",
                                   4),
                       &folded));
}

TEST(CollationTest, BinaryKeysAreTheirBytesAndAreNotCopied) {
  const TableDef t = People(Collation::kBinary);
  EXPECT_FALSE(IndexFoldsCase(t, 0));
  const std::string a = Key(t, "Ada", 1);
  std::string scratch;
  absl::string_view form = KeyForm(t, 0, a, &scratch);
  EXPECT_EQ(form.data(), a.data());
  EXPECT_NE(KeyHash(t, a), KeyHash(t, Key(t, "ada", 1)));
  EXPECT_EQ(KeyHash(t, a), KeyHash(a));  // the hash before collations, for tables without
}

}  // namespace
}  // namespace shoal::schema
