// The built-in function registry (function_registry.h) and the values and types of the
// functions whose rules are easy to get wrong: NULL propagation, SUBSTRING's negative
// positions, ROUND of .5 on DECIMAL (half away from zero) and DOUBLE (half to even), LPAD's
// truncation, DATE_FORMAT's specifiers. Expressions are parsed as `SELECT expr`.
#include <memory>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "router/sql/eval/expr_eval.h"
#include "router/sql/eval/function_registry.h"
#include "router/sql/eval/value_util.h"
#include "router/sql/parse/parser.h"

namespace shoal::sql {
namespace {

using mysql::ColumnType;
namespace flag = mysql::column_flag;

class FunctionsTest : public ::testing::Test {
 protected:
  // The first select item of `SELECT <expr>`.
  const Expr& Parsed(absl::string_view expr) {
    auto parsed = Parse(absl::StrCat("SELECT ", expr), ParseOptions{});
    EXPECT_TRUE(std::holds_alternative<Statement>(parsed)) << expr;
    statements_.push_back(std::make_unique<Statement>(std::move(std::get<Statement>(parsed))));
    return *std::get<SelectStmt>(statements_.back()->node).items[0].expr;
  }

  EvalContext Context() {
    EvalContext ctx;
    ctx.state = &state_;
    ctx.mutable_state = &state_;
    ctx.now = absl::FromUnixSeconds(1700000000);  // 2023-11-14 22:13:20 UTC
    ctx.warnings = &warnings_;
    return ctx;
  }

  // The value's text ("NULL" for NULL); the error's code and text when it fails.
  std::string Value(absl::string_view expr) {
    EvalContext ctx = Context();
    auto v = Evaluate(Parsed(expr), &ctx);
    if (auto* err = std::get_if<mysql::SqlError>(&v)) {
      return absl::StrCat("error ", err->code, ": ", err->message);
    }
    return ValueText(std::get<mysql::Value>(v));
  }

  mysql::ColumnDefinition Type(absl::string_view expr) {
    auto t = TypeOf(Parsed(expr), Context());
    EXPECT_TRUE(std::holds_alternative<mysql::ColumnDefinition>(t)) << expr;
    return std::holds_alternative<mysql::ColumnDefinition>(t) ? std::get<mysql::ColumnDefinition>(t)
                                                              : mysql::ColumnDefinition{};
  }

  int ErrorCode(absl::string_view expr) {
    EvalContext ctx = Context();
    auto v = Evaluate(Parsed(expr), &ctx);
    auto* err = std::get_if<mysql::SqlError>(&v);
    return err == nullptr ? 0 : err->code;
  }

  SessionState state_;
  std::vector<Diagnostic> warnings_;
  std::vector<std::unique_ptr<Statement>> statements_;
};

TEST(FunctionRegistryTest, EveryNameIsFoundOnceWithItsArgumentCounts) {
  const internal::BuiltinFunction* substring = internal::FindBuiltinFunction("SUBSTRING");
  ASSERT_NE(substring, nullptr);
  EXPECT_FALSE(internal::TakesArgCount(*substring, 1));
  EXPECT_TRUE(internal::TakesArgCount(*substring, 2));
  EXPECT_TRUE(internal::TakesArgCount(*substring, 3));
  EXPECT_FALSE(internal::TakesArgCount(*substring, 4));
  const internal::BuiltinFunction* concat = internal::FindBuiltinFunction("CONCAT");
  ASSERT_NE(concat, nullptr);
  EXPECT_TRUE(internal::TakesArgCount(*concat, 100));
  EXPECT_EQ(internal::FindBuiltinFunction("substring"), nullptr);  // names come upper-cased
  EXPECT_EQ(internal::FindBuiltinFunction("NO_SUCH_FUNCTION"), nullptr);
}

TEST(FunctionRegistryTest, NoNameIsInTwoFamilies) {
  std::set<absl::string_view> names;
  for (auto family :
       {internal::SessionFunctions(), internal::ClockFunctions(), internal::ControlFunctions(),
        internal::StringFunctions(), internal::SubstringFunctions(), internal::NumericFunctions(),
        internal::TemporalFunctions(), internal::HashFunctions(), internal::DateArithFunctions(),
        internal::CalendarFunctions(), internal::StrToDateFunctions(), internal::MathFunctions(),
        internal::RadixFunctions(), internal::TextFunctions(), internal::TimeFunctions()}) {
    for (const internal::BuiltinFunction& f : family) {
      EXPECT_TRUE(names.insert(f.name).second) << f.name;
      EXPECT_EQ(internal::FindBuiltinFunction(f.name), &f) << f.name;
      EXPECT_FALSE(internal::IsKnownMissingBuiltin(f.name)) << f.name;
    }
  }
}

TEST(FunctionRegistryTest, ImplementedNamesAreNotListedAsMissing) {
  for (absl::string_view name : {"ABS", "ROUND", "SUBSTRING", "DATE_FORMAT", "MD5", "SHA1", "SHA2",
                                 "UUID", "CONCAT_WS", "GREATEST", "DATEDIFF"}) {
    EXPECT_NE(internal::FindBuiltinFunction(name), nullptr) << name;
    EXPECT_FALSE(internal::IsKnownMissingBuiltin(name)) << name;
  }
  for (absl::string_view name : {"COUNT", "LOAD_FILE", "INET6_ATON"}) {
    EXPECT_EQ(internal::FindBuiltinFunction(name), nullptr) << name;
    EXPECT_TRUE(internal::IsKnownMissingBuiltin(name)) << name;
  }
}

TEST_F(FunctionsTest, ErrorsForNamesAndArgumentCounts) {
  EXPECT_EQ(ErrorCode("LOAD_FILE('a')"), 1235);  // a MySQL built-in not evaluated yet
  // The user-level lock functions where no statement can stop to ask the master; their names
  // are checked first.
  EXPECT_EQ(ErrorCode("GET_LOCK('a', 1)"), 1235);
  EXPECT_EQ(ErrorCode("GET_LOCK(NULL, 1)"), 3057);
  EXPECT_EQ(ErrorCode("RELEASE_LOCK('')"), 3057);
  EXPECT_EQ(ErrorCode("IS_FREE_LOCK(REPEAT('x', 65))"), 3057);
  EXPECT_EQ(ErrorCode("IS_USED_LOCK(REPEAT('é', 64))"), 1235);
  // SLEEP waits only where its statement can wait on the worker's loop (exec/exec_sleep.h).
  EXPECT_EQ(ErrorCode("SLEEP(1)"), 1235);
  EXPECT_EQ(ErrorCode("COUNT(1) + 1"), 1111);  // an aggregate nothing computes
  EXPECT_EQ(ErrorCode("nosuch(1)"), 1046);     // no database selected
  state_.database = "db";
  EXPECT_EQ(Value("nosuch(1)"), "error 1305: FUNCTION db.nosuch does not exist");
  EXPECT_EQ(Value("CONCAT_WS('a')"),
            "error 1582: Incorrect parameter count in the call to native function 'CONCAT_WS'");
  EXPECT_EQ(ErrorCode("ROUND(1, 2, 3)"), 1582);
  EXPECT_EQ(ErrorCode("UUID(1)"), 1582);
}

TEST_F(FunctionsTest, NullPropagation) {
  for (absl::string_view expr :
       {"SUBSTRING(NULL, 1)", "SUBSTRING('abc', NULL)", "LEFT('abc', NULL)", "LPAD(NULL, 3, 'x')",
        "REPLACE('a', NULL, 'b')", "ROUND(NULL)", "ROUND(1.5, NULL)", "ABS(NULL)", "MOD(1, NULL)",
        "GREATEST(1, NULL, 3)", "LEAST(NULL, 1)", "YEAR(NULL)", "DATE_FORMAT(NULL, '%Y')",
        "DATEDIFF('2024-01-01', NULL)", "MD5(NULL)", "CHAR_LENGTH(NULL)", "CONCAT_WS(NULL, 'a')"}) {
    EXPECT_EQ(Value(expr), "NULL") << expr;
  }
  // CONCAT_WS skips NULL arguments; only a NULL separator makes it NULL.
  EXPECT_EQ(Value("CONCAT_WS(',', 'a', NULL, 'b')"), "a,b");
  EXPECT_EQ(Value("LPAD('ab', -1, 'x')"), "NULL");
  EXPECT_EQ(Value("LPAD('ab', 4, '')"), "NULL");
}

TEST_F(FunctionsTest, SubstringPositions) {
  EXPECT_EQ(Value("SUBSTRING('Sakila', -3)"), "ila");
  EXPECT_EQ(Value("SUBSTRING('Sakila', -5, 3)"), "aki");
  EXPECT_EQ(Value("SUBSTRING('Sakila', -6)"), "Sakila");
  EXPECT_EQ(Value("SUBSTRING('Sakila', -7)"), "");
  EXPECT_EQ(Value("SUBSTRING('Sakila', 0)"), "");
  EXPECT_EQ(Value("SUBSTRING('Sakila', 7)"), "");
  EXPECT_EQ(Value("SUBSTRING('Sakila', 2, 0)"), "");
  EXPECT_EQ(Value("SUBSTRING('Sakila', 2, -1)"), "");
  EXPECT_EQ(Value("MID('héllo', 2, 3)"), "éll");  // characters, not bytes
  EXPECT_EQ(Value("RIGHT('héllo', 4)"), "éllo");
  EXPECT_EQ(Value("REVERSE('héllo')"), "olléh");
  // A constant position bounds the column's length as the value will be.
  EXPECT_EQ(Type("SUBSTRING('Sakila', -3)").length, 3u * 4);
  EXPECT_EQ(Type("SUBSTRING('Sakila', 3, 2)").length, 2u * 4);
}

TEST_F(FunctionsTest, RoundHalfOnDecimalAndDouble) {
  EXPECT_EQ(Value("ROUND(2.5)"), "3");
  EXPECT_EQ(Value("ROUND(-2.5)"), "-3");
  EXPECT_EQ(Value("ROUND(0.5)"), "1");
  EXPECT_EQ(Value("ROUND(2.5e0)"), "2");  // rint: half to even
  EXPECT_EQ(Value("ROUND(3.5e0)"), "4");
  EXPECT_EQ(Value("ROUND(-2.5e0)"), "-2");
  EXPECT_EQ(Value("ROUND(1.298, 1)"), "1.3");
  EXPECT_EQ(Value("ROUND(9.995, 2)"), "10.00");
  EXPECT_EQ(Value("ROUND(1.5, 3)"), "1.500");
  EXPECT_EQ(Value("ROUND(23.298, -1)"), "20");
  EXPECT_EQ(Value("ROUND(125, -1)"), "130");
  EXPECT_EQ(Value("ROUND(-125, -1)"), "-130");
  EXPECT_EQ(Value("ROUND(-0.4)"), "0");
  EXPECT_EQ(Value("ROUND(9223372036854775807, -30)"), "0");
  EXPECT_EQ(ErrorCode("ROUND(9223372036854775807, -1)"), 1690);
  EXPECT_EQ(Value("TRUNCATE(-1.999, 1)"), "-1.9");
  EXPECT_EQ(Value("TRUNCATE(122, -2)"), "100");
  EXPECT_EQ(Value("FLOOR(-1.23)"), "-2");
  EXPECT_EQ(Value("CEIL(-1.23)"), "-1");
  EXPECT_EQ(Value("CEIL(0.2)"), "1");
  EXPECT_EQ(Type("ROUND(2.5)").type, ColumnType::kNewDecimal);
  EXPECT_EQ(Type("ROUND(1.298, 1)").decimals, 1);
  EXPECT_EQ(Type("ROUND(2.5e0)").type, ColumnType::kDouble);
  EXPECT_EQ(Type("ROUND(7)").type, ColumnType::kLongLong);
  EXPECT_EQ(Type("FLOOR(1.5)").type, ColumnType::kLongLong);
  EXPECT_EQ(Type("FLOOR(1.5e0)").type, ColumnType::kDouble);
  EXPECT_EQ(Value("ABS(-9223372036854775807 - 1)"),
            "error 1690: BIGINT value is out of range in 'abs(-9223372036854775808)'");
}

TEST_F(FunctionsTest, PaddingAndRepetition) {
  EXPECT_EQ(Value("LPAD('hi', 4, '*+')"), "*+hi");
  EXPECT_EQ(Value("LPAD('hello', 2, 'x')"), "he");  // truncated on the right, also by LPAD
  EXPECT_EQ(Value("RPAD('hi', 5, 'ab')"), "hiaba");
  EXPECT_EQ(Value("LPAD('é', 3, 'ü')"), "üüé");
  EXPECT_EQ(Value("REPEAT('ab', 3)"), "ababab");
  EXPECT_EQ(Value("REPEAT('ab', -1)"), "");
  EXPECT_EQ(Type("LPAD('hi', 4, '?')").length, 4u * 4);
  EXPECT_TRUE(Type("LPAD('hi', 4, '?')").flags & flag::kNotNull);
  EXPECT_EQ(Type("REPEAT('ab', 3)").length, 6u * 4);
}

TEST_F(FunctionsTest, OtherStringFunctions) {
  EXPECT_EQ(Value("REPLACE('aAa', 'a', 'b')"), "bAb");  // case-sensitive
  EXPECT_EQ(Value("INSTR('FOOBAR', 'bar')"), "4");      // case-insensitive
  // Accents too, between spellings of one length in bytes, as MySQL's my_instr_mb compares.
  EXPECT_EQ(Value("LOCATE('É', 'José')"), "4");
  EXPECT_EQ(Value("LOCATE('è', 'José')"), "4");
  EXPECT_EQ(Value("LOCATE('e', 'José')"), "0");
  EXPECT_EQ(Value("LOCATE('', 'abc', 4)"), "4");
  EXPECT_EQ(Value("LOCATE('', 'abc', 5)"), "0");
  EXPECT_EQ(Value("LOCATE('b', 'abcb', 3)"), "4");
  EXPECT_EQ(Value("'Crème Brûlée' LIKE '%BRULEE'"), "1");
  EXPECT_EQ(Value("'Σοφία' LIKE 'σοφια'"), "1");
  EXPECT_EQ(Value("'naïve' LIKE 'na_ve'"), "1");
  EXPECT_EQ(Value("'naïve' LIKE BINARY 'naive'"), "0");
  EXPECT_EQ(Value("'Ärger' = 'ARGER'"), "1");
  EXPECT_EQ(Value("'Ärger' < 'b'"), "1");
  EXPECT_EQ(Value("TRIM('  a b  ')"), "a b");
  EXPECT_EQ(Value("LTRIM('  a ')"), "a ");
  EXPECT_EQ(Value("RTRIM(' a  ')"), " a");
  EXPECT_EQ(Value("LENGTH('héllo')"), "6");
  EXPECT_EQ(Value("CHAR_LENGTH('héllo')"), "5");
  EXPECT_EQ(Value("MD5('testing')"), "ae2b1fca515949e5d54fb22b8ed95575");
  EXPECT_EQ(Value("MD5(REPEAT('a', 56))"), "3b0c8ac703f828b04c6c197006d17218");
  std::string uuid = Value("UUID()");
  EXPECT_EQ(uuid.size(), 36u);
  EXPECT_EQ(uuid[14], '1');  // version 1
  EXPECT_NE(uuid, Value("UUID()"));
}

TEST_F(FunctionsTest, RegularExpressions) {
  EXPECT_EQ(Value("'Shoal' REGEXP '^sh'"), "1");  // the connection's collation: case-insensitive
  EXPECT_EQ(Value("'Shoal' NOT REGEXP '^sh'"), "0");
  EXPECT_EQ(Value("'Shoal' RLIKE 'x|a'"), "1");
  EXPECT_EQ(Value("BINARY 'Shoal' REGEXP '^sh'"), "0");
  EXPECT_EQ(Value("REGEXP_LIKE('Shoal', '^sh', 'c')"), "0");
  EXPECT_EQ(Value("REGEXP_LIKE('Shoal', '^sh', 'ci')"), "1");
  EXPECT_EQ(Value("REGEXP_LIKE('a\nb', 'a.b')"), "0");
  EXPECT_EQ(Value("REGEXP_LIKE('a\nb', 'a.b', 'n')"), "1");
  EXPECT_EQ(Value("REGEXP_LIKE('a\nb', '^b$', 'm')"), "1");
  EXPECT_EQ(Value("'Ωμέγα' REGEXP '^ω.{4}$'"), "1");  // characters, not bytes
  EXPECT_EQ(Value("NULL REGEXP 'a'"), "NULL");
  EXPECT_EQ(Value("REGEXP_INSTR('dog cat dog', 'dog')"), "1");
  EXPECT_EQ(Value("REGEXP_INSTR('dog cat dog', 'dog', 2)"), "9");
  EXPECT_EQ(Value("REGEXP_INSTR('dog cat dog', 'dog', 1, 2)"), "9");
  EXPECT_EQ(Value("REGEXP_INSTR('dog cat dog', 'dog', 1, 3)"), "0");
  EXPECT_EQ(Value("REGEXP_INSTR('dog cat dog', 'dog', 1, 1, 1)"), "4");
  EXPECT_EQ(Value("REGEXP_INSTR('añob', 'o')"), "3");
  EXPECT_EQ(Value("REGEXP_SUBSTR('abc def ghi', '[a-z]+', 1, 3)"), "ghi");
  EXPECT_EQ(Value("REGEXP_SUBSTR('abc def', '[0-9]+')"), "NULL");
  EXPECT_EQ(Value("REGEXP_REPLACE('a b c', ' ', '-')"), "a-b-c");
  EXPECT_EQ(Value("REGEXP_REPLACE('a b c', ' ', '-', 1, 2)"), "a b-c");
  EXPECT_EQ(Value("REGEXP_REPLACE('a b c', ' ', '-', 3)"), "a b-c");
  EXPECT_EQ(Value("REGEXP_REPLACE('John Smith', '(\\\\w+) (\\\\w+)', '$2, $1')"), "Smith, John");
  EXPECT_EQ(Value("REGEXP_REPLACE('abc', 'x*', '-')"), "-a-b-c-");
  EXPECT_EQ(Value("REGEXP_REPLACE('ABC', 'b', 'x')"), "AxC");
  EXPECT_EQ(ErrorCode("'a' REGEXP '(a'"), 3691);
  EXPECT_EQ(ErrorCode("'a' REGEXP '[a'"), 3696);
  EXPECT_EQ(ErrorCode("REGEXP_INSTR('abc', 'b', 5)"), 3686);
  EXPECT_EQ(ErrorCode("REGEXP_LIKE('a', 'a', 'z')"), 1210);
}

TEST_F(FunctionsTest, ComparisonsPickTheAggregatedType) {
  EXPECT_EQ(Value("GREATEST(1, 2.5)"), "2.5");
  EXPECT_EQ(Value("LEAST(1, 2.5)"), "1.0");
  EXPECT_EQ(Value("GREATEST('b', 'A', 'C')"), "C");
  EXPECT_EQ(Value("MOD(34.5, 3)"), "1.5");
  EXPECT_EQ(Value("MOD(7, 0)"), "NULL");
  EXPECT_EQ(Value("SIGN(-0.5)"), "-1");
}

TEST_F(FunctionsTest, DateParts) {
  EXPECT_EQ(Value("YEAR('2024-02-29 10:11:12')"), "2024");
  EXPECT_EQ(Value("MONTH(20240229)"), "2");
  EXPECT_EQ(Value("DAY('2024-02-29')"), "29");
  EXPECT_EQ(Value("HOUR('838:59:59')"), "838");
  EXPECT_EQ(Value("MINUTE('10:05:03')"), "5");
  EXPECT_EQ(Value("SECOND('2024-01-02 10:05:03')"), "3");
  EXPECT_EQ(Value("DATE('2024-01-02 10:05:03')"), "2024-01-02");
  EXPECT_EQ(Type("DATE('2024-01-02 10:05:03')").type, ColumnType::kDate);
  EXPECT_EQ(Value("DATEDIFF('2024-03-01 00:00:00', '2024-02-28 23:59:59')"), "2");
  EXPECT_EQ(Value("YEAR(NOW())"), "2023");
  warnings_.clear();
  EXPECT_EQ(Value("YEAR('2024-02-30')"), "NULL");
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0].message, "Incorrect datetime value: '2024-02-30'");
}

TEST_F(FunctionsTest, DateFormatSpecifiers) {
  EXPECT_EQ(Value("DATE_FORMAT('2009-10-04 22:23:00', '%W %M %Y')"), "Sunday October 2009");
  EXPECT_EQ(Value("DATE_FORMAT('1900-10-04 22:23:00', '%D %y %a %d %m %b %j')"),
            "4th 00 Thu 04 10 Oct 277");
  EXPECT_EQ(Value("DATE_FORMAT('1997-10-04 22:23:00', '%H %k %I %r %T %S %w')"),
            "22 22 10 10:23:00 PM 22:23:00 00 6");
  EXPECT_EQ(Value("DATE_FORMAT('2024-01-02 03:04:05.123456', '%Y-%m-%d %h:%i:%s.%f %p %c %e')"),
            "2024-01-02 03:04:05.123456 AM 1 2");
  EXPECT_EQ(Value("DATE_FORMAT('2024-01-02 00:00:00', '%h %l %p %% %q')"), "12 12 AM % q");
  EXPECT_EQ(Value("DATE_FORMAT('2024-01-22', '%D %D')"), "22nd 22nd");
  EXPECT_EQ(Type("DATE_FORMAT('2024-01-02', '%Y-%m-%d')").length, 10u * 4);
  EXPECT_FALSE(Type("DATE_FORMAT('2024-01-02', '%Y')").flags & flag::kNotNull);
}

TEST_F(FunctionsTest, TypesOfStringResults) {
  mysql::ColumnDefinition concat_ws = Type("CONCAT_WS('-', 'ab', 'c', 'def')");
  EXPECT_EQ(concat_ws.type, ColumnType::kVarString);
  EXPECT_EQ(concat_ws.length, (1u * 2 + 2 + 1 + 3) * 4);
  EXPECT_TRUE(concat_ws.flags & flag::kNotNull);
  mysql::ColumnDefinition length = Type("CHAR_LENGTH('abc')");
  EXPECT_EQ(length.type, ColumnType::kLongLong);
  // A length the typing cannot know: as long as a string can be.
  EXPECT_EQ(Type("REPEAT('a', CONNECTION_ID())").type, ColumnType::kBlob);
}

// IFNULL and COALESCE type their result as CASE does: numbers stay numbers (drivers read an
// integer, not a string), dates of two types meet as DATETIME.
TEST_F(FunctionsTest, TypesOfCoalesce) {
  EXPECT_EQ(Type("IFNULL(CAST(NULL AS SIGNED), 0)").type, ColumnType::kLongLong);
  EXPECT_EQ(Type("COALESCE(1.5, 2)").type, ColumnType::kNewDecimal);
  EXPECT_EQ(Type("COALESCE(1, 2.5)").decimals, 1);
  EXPECT_EQ(Type("IFNULL(1e0, 2)").type, ColumnType::kDouble);
  EXPECT_EQ(Type("IFNULL(1, 'a')").type, ColumnType::kVarString);
  EXPECT_TRUE(Type("IFNULL(NULL, 3)").flags & flag::kNotNull);
  EXPECT_EQ(Type("COALESCE(DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00')").type,
            ColumnType::kDateTime);
  EXPECT_EQ(Value("COALESCE(NULL, DATE '2024-01-01')"), "2024-01-01");
}

}  // namespace
}  // namespace shoal::sql

namespace shoal::sql {
namespace {

// Date arithmetic (functions_date_arith.cc): INTERVAL's units and string forms, month
// clamping, the result types MySQL gives, overflow past 9999.
TEST_F(FunctionsTest, DateAddIntervals) {
  EXPECT_EQ(Value("DATE_ADD('2024-01-31', INTERVAL 1 MONTH)"), "2024-02-29");
  EXPECT_EQ(Value("'2023-01-31' + INTERVAL 1 MONTH"), "2023-02-28");
  EXPECT_EQ(Value("INTERVAL 1 DAY + '2024-12-31'"), "2025-01-01");
  EXPECT_EQ(Value("'2024-01-01' - INTERVAL 2 HOUR"), "2023-12-31 22:00:00");
  EXPECT_EQ(Value("DATE_SUB('2024-03-01', INTERVAL 1 DAY)"), "2024-02-29");
  EXPECT_EQ(Value("ADDDATE('2024-01-01', 31)"), "2024-02-01");
  EXPECT_EQ(Value("SUBDATE('2024-02-29', INTERVAL 1 YEAR)"), "2023-02-28");
  EXPECT_EQ(Value("DATE_ADD('2024-01-01', INTERVAL 1 QUARTER)"), "2024-04-01");
  EXPECT_EQ(Value("DATE_ADD('2024-01-01', INTERVAL 2 WEEK)"), "2024-01-15");
  EXPECT_EQ(Value("DATE_ADD('2024-01-01', INTERVAL '1:30' HOUR_MINUTE)"), "2024-01-01 01:30:00");
  EXPECT_EQ(Value("DATE_ADD('2024-01-01', INTERVAL '1:30' HOUR_SECOND)"), "2024-01-01 00:01:30");
  EXPECT_EQ(Value("DATE_ADD('2024-01-01', INTERVAL '-1 2' DAY_HOUR)"), "2023-12-30 22:00:00");
  EXPECT_EQ(Value("DATE_ADD('2024-01-01', INTERVAL '1-2' YEAR_MONTH)"), "2025-03-01");
  EXPECT_EQ(Value("DATE_ADD('2024-01-01', INTERVAL '1.5' SECOND_MICROSECOND)"),
            "2024-01-01 00:00:01.500000");
  EXPECT_EQ(Value("DATE_ADD('2024-01-01', INTERVAL '1:2:3' HOUR_MINUTE)"), "NULL");
  EXPECT_EQ(Value("DATE_ADD(20240101, INTERVAL 1 DAY)"), "2024-01-02");
  EXPECT_EQ(Value("DATE_ADD(NULL, INTERVAL 1 DAY)"), "NULL");
  EXPECT_EQ(Value("DATE_ADD('2024-01-01', INTERVAL NULL DAY)"), "NULL");
}

TEST_F(FunctionsTest, DateAddOverflowAndBadDates) {
  EXPECT_EQ(Value("DATE_ADD('9999-12-31', INTERVAL 1 DAY)"), "NULL");
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0].code, 1441);
  EXPECT_EQ(warnings_[0].message, "Datetime function: datetime field overflow");
  EXPECT_EQ(Value("DATE_SUB('0001-01-01', INTERVAL 1 DAY)"), "NULL");
  EXPECT_EQ(Value("DATE_ADD('2024-01-01', INTERVAL 8000 YEAR)"), "NULL");
  warnings_.clear();
  EXPECT_EQ(Value("DATE_ADD('2024-02-30', INTERVAL 1 DAY)"), "NULL");
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0].code, 1292);
  EXPECT_EQ(warnings_[0].message, "Incorrect datetime value: '2024-02-30'");
}

TEST_F(FunctionsTest, DateAddResultTypes) {
  EXPECT_EQ(Type("DATE_ADD('2024-01-01', INTERVAL 1 DAY)").type, ColumnType::kVarString);
  EXPECT_EQ(Type("DATE_ADD(CURDATE(), INTERVAL 1 DAY)").type, ColumnType::kDate);
  EXPECT_EQ(Type("CURDATE() + INTERVAL 1 YEAR_MONTH").type, ColumnType::kDate);
  EXPECT_EQ(Type("CURDATE() + INTERVAL 1 HOUR").type, ColumnType::kDateTime);
  const mysql::ColumnDefinition micro = Type("CURDATE() + INTERVAL 1 MICROSECOND");
  EXPECT_EQ(micro.type, ColumnType::kDateTime);
  EXPECT_EQ(micro.decimals, 6);
  EXPECT_EQ(Type("NOW() - INTERVAL 1.5 SECOND").decimals, 1);
  EXPECT_EQ(Type("CURTIME() + INTERVAL 1 HOUR").type, ColumnType::kTime);
  EXPECT_EQ(Type("CURTIME() + INTERVAL 1 DAY").type, ColumnType::kDateTime);
  EXPECT_EQ(Type("CURDATE() + INTERVAL 1 DAY").flags & flag::kNotNull, 0);
  EXPECT_EQ(Value("CURDATE() + INTERVAL 1 DAY"), "2023-11-15");  // a DATE value
  EXPECT_EQ(Value("CAST('10:00:00' AS TIME) + INTERVAL 90 MINUTE"), "11:30:00");
}

TEST_F(FunctionsTest, TimestampAddAndDiff) {
  EXPECT_EQ(Value("TIMESTAMPADD(MINUTE, 90, '2024-01-01')"), "2024-01-01 01:30:00");
  EXPECT_EQ(Value("TIMESTAMPADD(SQL_TSI_MONTH, 1, '2024-03-31')"), "2024-04-30");
  EXPECT_EQ(Value("TIMESTAMPDIFF(MONTH, '2024-01-31', '2024-02-29')"), "0");
  EXPECT_EQ(Value("TIMESTAMPDIFF(MONTH, '2024-01-31', '2024-03-31')"), "2");
  EXPECT_EQ(Value("TIMESTAMPDIFF(YEAR, '2000-02-29', '2024-02-28')"), "23");
  EXPECT_EQ(Value("TIMESTAMPDIFF(YEAR, '2024-02-28', '2000-02-29')"), "-23");
  EXPECT_EQ(Value("TIMESTAMPDIFF(DAY, '2024-03-01', '2024-01-01 12:00:00')"), "-59");
  EXPECT_EQ(Value("TIMESTAMPDIFF(MICROSECOND, '2024-01-01', '2024-01-01 00:00:01.5')"), "1500000");
  EXPECT_EQ(Value("TIMESTAMPDIFF(HOUR, NULL, '2024-01-01')"), "NULL");
  EXPECT_EQ(Value("EXTRACT(YEAR_MONTH FROM '2024-03-15 10:20:30.000123')"), "202403");
  EXPECT_EQ(Value("EXTRACT(QUARTER FROM '2024-08-01')"), "3");
  EXPECT_EQ(Value("EXTRACT(DAY_HOUR FROM '2024-03-15 10:20:30')"), "1510");
  EXPECT_EQ(Value("EXTRACT(DAY_MICROSECOND FROM '2024-03-15 10:20:30.000123')"), "15102030000123");
  EXPECT_EQ(Value("EXTRACT(HOUR_SECOND FROM TIME '-100:20:30')"), "-1002030");
  EXPECT_EQ(Value("EXTRACT(MINUTE FROM '10:20:30')"), "20");
  EXPECT_EQ(Value("EXTRACT(WEEK FROM '2024-01-01')"), "0");  // default_week_format 0
  EXPECT_EQ(Value("EXTRACT(WEEK FROM '2024-12-31')"), "52");
  EXPECT_EQ(Value("EXTRACT(SECOND_MICROSECOND FROM '10:20:30.5')"), "30500000");
  EXPECT_EQ(Value("EXTRACT(DAY FROM NULL)"), "NULL");
  EXPECT_EQ(Value("POSITION('b' IN 'abc')"), "2");
  EXPECT_EQ(Value("POSITION('B' IN 'abc')"), "2");
  EXPECT_EQ(Type("TIMESTAMPDIFF(DAY, NOW(), NOW())").type, ColumnType::kLongLong);
}

TEST_F(FunctionsTest, UnixTime) {
  EXPECT_EQ(Value("FROM_UNIXTIME(0)"), "1970-01-01 00:00:00");
  EXPECT_EQ(Value("FROM_UNIXTIME(1700000000, '%Y-%m-%d %H')"), "2023-11-14 22");
  EXPECT_EQ(Value("FROM_UNIXTIME(-1)"), "NULL");
  EXPECT_EQ(Type("FROM_UNIXTIME(1.50)").decimals, 2);
  EXPECT_EQ(Value("UNIX_TIMESTAMP('2024-01-01')"), "1704067200");
  EXPECT_EQ(Value("UNIX_TIMESTAMP('2024-01-01 00:00:00.25')"), "1704067200.25");
  EXPECT_EQ(Type("UNIX_TIMESTAMP('2024-01-01 00:00:00.25')").type, ColumnType::kNewDecimal);
  EXPECT_EQ(Value("UNIX_TIMESTAMP('1960-01-01')"), "0");  // before the TIMESTAMP range
  EXPECT_EQ(Value("UNIX_TIMESTAMP()"), "1700000000");
}

TEST_F(FunctionsTest, StrToDate) {
  EXPECT_EQ(Value("STR_TO_DATE('01/02/2024', '%d/%m/%Y')"), "2024-02-01");
  EXPECT_EQ(Type("STR_TO_DATE('01/02/2024', '%d/%m/%Y')").type, ColumnType::kDate);
  EXPECT_EQ(Type("STR_TO_DATE('10:11', '%H:%i')").type, ColumnType::kTime);
  EXPECT_EQ(Value("STR_TO_DATE('10:11', '%H:%i')"), "10:11:00");
  EXPECT_EQ(Type("STR_TO_DATE('x', '%Y %H')").type, ColumnType::kDateTime);
  EXPECT_EQ(Type("STR_TO_DATE('x', '%Y %f')").decimals, 6);
  EXPECT_EQ(Value("STR_TO_DATE('Jan 5 2024 3PM', '%b %e %Y %h%p')"), "2024-01-05 15:00:00");
  EXPECT_EQ(Value("STR_TO_DATE('March 3rd, 2024', '%M %D, %Y')"), "2024-03-03");
  EXPECT_EQ(Value("STR_TO_DATE('2024 32', '%Y %j')"), "2024-02-01");
  EXPECT_EQ(Value("STR_TO_DATE('2024-02-30', '%Y-%m-%d')"), "NULL");
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0].code, 1411);
  EXPECT_EQ(warnings_[0].message,
            "Incorrect datetime value: '2024-02-30' for function str_to_date");
  warnings_.clear();
  EXPECT_EQ(Value("STR_TO_DATE('2024-01-02x', '%Y-%m-%d')"), "2024-01-02");
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0].message, "Truncated incorrect date value: '2024-01-02x'");
  EXPECT_EQ(ErrorCode("STR_TO_DATE('1', '%U')"), 1235);
}

TEST_F(FunctionsTest, CalendarParts) {
  EXPECT_EQ(Value("LAST_DAY('2024-02-10')"), "2024-02-29");
  EXPECT_EQ(Value("DAYOFWEEK('2024-01-07')"), "1");  // a Sunday
  EXPECT_EQ(Value("WEEKDAY('2024-01-07')"), "6");
  EXPECT_EQ(Value("DAYOFYEAR('2024-12-31')"), "366");
  EXPECT_EQ(Value("DAYNAME('2024-01-07')"), "Sunday");
  EXPECT_EQ(Value("MONTHNAME('2024-09-01')"), "September");
  EXPECT_EQ(Value("QUARTER('2024-11-30')"), "4");
  EXPECT_EQ(Value("TO_DAYS('2000-07-03')"), "730669");  // MySQL's documented example
  EXPECT_EQ(Value("FROM_DAYS(730669)"), "2000-07-03");
  EXPECT_EQ(Value("FROM_DAYS(1)"), "0000-00-00");
  EXPECT_EQ(Value("MAKEDATE(2024, 60)"), "2024-02-29");
  EXPECT_EQ(Value("MAKEDATE(24, 0)"), "NULL");
  EXPECT_EQ(Value("TIME_TO_SEC('-01:00:01')"), "-3601");
  EXPECT_EQ(Value("SEC_TO_TIME(3661)"), "01:01:01");
  EXPECT_EQ(Value("SEC_TO_TIME(4000000)"), "838:59:59");
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0].message, "Truncated incorrect time value: '4000000'");
  EXPECT_EQ(Value("LAST_DAY('2024-13-01')"), "NULL");
}

}  // namespace
}  // namespace shoal::sql

namespace shoal::sql {
namespace {

// Floating-point mathematics (functions_math.cc): domains (NULL), logarithms' warning 3020,
// overflow (1690), and RAND's sequence, MySQL's own generator.
TEST_F(FunctionsTest, MathFunctions) {
  EXPECT_EQ(Value("POW(2, 10)"), "1024");
  EXPECT_EQ(Value("POWER(2, -1)"), "0.5");
  EXPECT_EQ(Value("SQRT(16)"), "4");
  EXPECT_EQ(Value("SQRT(-1)"), "NULL");
  EXPECT_TRUE(warnings_.empty());
  EXPECT_EQ(Value("EXP(0)"), "1");
  EXPECT_EQ(Value("LN(1)"), "0");
  EXPECT_EQ(Value("LOG(2, 65536)"), "16");
  EXPECT_EQ(Value("LOG2(8)"), "3");
  EXPECT_EQ(Value("LOG10(1000)"), "3");
  EXPECT_EQ(Value("LN(0)"), "NULL");
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0].code, 3020);
  EXPECT_EQ(warnings_[0].message, "Invalid argument for logarithm");
  EXPECT_EQ(Value("LOG(-1)"), "NULL");
  EXPECT_EQ(Value("LOG(1, 8)"), "NULL");  // base 1
  EXPECT_EQ(warnings_.size(), 3u);
  EXPECT_EQ(Value("PI()"), "3.141592653589793");
  EXPECT_EQ(Type("PI()").decimals, 6);      // shown as 3.141593
  EXPECT_EQ(Type("PI() + 0").decimals, 6);  // as MySQL's count_real_length
  EXPECT_EQ(Type("PI() * 1e0").decimals, 31);
  EXPECT_EQ(Value("SIN(0)"), "0");
  EXPECT_EQ(Value("COS(0)"), "1");
  EXPECT_EQ(Value("ATAN(1, 1)"), "0.7853981633974483");
  EXPECT_EQ(Value("ATAN2(1, 1)"), "0.7853981633974483");
  EXPECT_EQ(Value("ASIN(2)"), "NULL");
  EXPECT_EQ(Value("DEGREES(PI())"), "180");
  EXPECT_EQ(Value("RADIANS(180)"), "3.141592653589793");
  EXPECT_EQ(Value("COT(0)"), "error 1690: DOUBLE value is out of range in 'cot(0)'");
  EXPECT_EQ(ErrorCode("POW(10, 400)"), 1690);
  EXPECT_EQ(ErrorCode("EXP(1000)"), 1690);
  EXPECT_FALSE(Type("SQRT(4)").flags & flag::kNotNull);  // NULL outside the domain
  EXPECT_TRUE(Type("DEGREES(1)").flags & flag::kNotNull);
  EXPECT_EQ(Type("SQRT(4)").type, ColumnType::kDouble);
}

TEST_F(FunctionsTest, RandIsMysqlsGenerator) {
  // MySQL 8.0's values.
  EXPECT_EQ(Value("RAND(3)"), "0.9057697559760601");
  EXPECT_EQ(Value("RAND(0)"), "0.15522042769493574");
  EXPECT_EQ(Value("RAND(NULL)"), "0.15522042769493574");
  // A constant seed seeds the call once per statement: its next values follow the sequence.
  const Expr& seeded = Parsed("RAND(3)");
  EvalContext ctx = Context();
  std::vector<std::string> values;
  for (int i = 0; i < 3; ++i) {
    values.push_back(ValueText(std::get<mysql::Value>(Evaluate(seeded, &ctx))));
  }
  EXPECT_EQ(values, (std::vector<std::string>{"0.9057697559760601", "0.37307905813034536",
                                              "0.14808605345719125"}));
  // Another statement starts again.
  ++state_.questions;
  EXPECT_EQ(ValueText(std::get<mysql::Value>(Evaluate(seeded, &ctx))), "0.9057697559760601");
  // A seed that is not constant seeds every value.
  const Expr& each = Parsed("RAND(1 + 2)");
  EXPECT_EQ(ValueText(std::get<mysql::Value>(Evaluate(each, &ctx))), "0.9057697559760601");
  EXPECT_EQ(ValueText(std::get<mysql::Value>(Evaluate(each, &ctx))), "0.9057697559760601");
  const double r = std::stod(Value("RAND()"));
  EXPECT_GE(r, 0.0);
  EXPECT_LT(r, 1.0);
  EXPECT_NE(Value("RAND()"), Value("RAND()"));
  EXPECT_TRUE(Type("RAND()").flags & flag::kNotNull);
}

TEST_F(FunctionsTest, RadixAndBytes) {
  EXPECT_EQ(Value("CONV('a', 16, 2)"), "1010");
  EXPECT_EQ(Value("CONV('6E', 18, 8)"), "172");
  EXPECT_EQ(Value("CONV(-17, 10, -18)"), "-H");
  EXPECT_EQ(Value("CONV('zz', 36, 10)"), "1295");
  EXPECT_EQ(Value("CONV(-1, 10, 16)"), "FFFFFFFFFFFFFFFF");
  EXPECT_EQ(Value("CONV('99999999999999999999', 10, 16)"), "FFFFFFFFFFFFFFFF");
  EXPECT_EQ(Value("CONV('12x', 10, 10)"), "12");
  EXPECT_EQ(Value("CONV('1', 1, 10)"), "NULL");
  EXPECT_EQ(Value("BIN(12)"), "1100");
  EXPECT_EQ(Value("OCT(12)"), "14");
  EXPECT_EQ(Value("HEX(255)"), "FF");
  EXPECT_EQ(Value("HEX('abc')"), "616263");
  EXPECT_EQ(Value("HEX(-1)"), "FFFFFFFFFFFFFFFF");
  EXPECT_EQ(Value("HEX(1.5)"), "2");
  EXPECT_EQ(Value("UNHEX('4D7953514C')"), "MySQL");
  EXPECT_EQ(Value("UNHEX('GG')"), "NULL");
  EXPECT_EQ(Value("HEX(UNHEX('141'))"), "0141");
  EXPECT_EQ(Type("UNHEX('41')").charset, mysql::charset::kBinary);
  EXPECT_EQ(Value("TO_BASE64('abc')"), "YWJj");
  EXPECT_EQ(Value("FROM_BASE64('YWI=')"), "ab");
  EXPECT_EQ(Value("FROM_BASE64(TO_BASE64(REPEAT('xyz', 40)))"), Value("REPEAT('xyz', 40)"));
  EXPECT_EQ(Value("LOCATE('\n', TO_BASE64(REPEAT('a', 60)))"), "77");  // 76 per line
  EXPECT_EQ(Value("FROM_BASE64('YW=I')"), "NULL");
  EXPECT_EQ(Value("BIT_COUNT(29)"), "4");
  EXPECT_EQ(Value("BIT_COUNT(-1)"), "64");
  EXPECT_EQ(Value("INET_ATON('10.0.5.9')"), "167773449");
  EXPECT_EQ(Value("INET_ATON('127.1')"), "2130706433");
  EXPECT_EQ(Value("INET_ATON('1.2.3.256')"), "NULL");
  EXPECT_EQ(Value("INET_NTOA(167773449)"), "10.0.5.9");
  EXPECT_EQ(Value("INET_NTOA(-1)"), "NULL");
}

TEST_F(FunctionsTest, MoreStringFunctions) {
  EXPECT_EQ(Value("SUBSTRING_INDEX('www.mysql.com', '.', 2)"), "www.mysql");
  EXPECT_EQ(Value("SUBSTRING_INDEX('www.mysql.com', '.', -2)"), "mysql.com");
  EXPECT_EQ(Value("SUBSTRING_INDEX('www.mysql.com', '.', 5)"), "www.mysql.com");
  EXPECT_EQ(Value("SUBSTRING_INDEX('a..b', '..', -1)"), "b");
  EXPECT_EQ(Value("INSERT('Quadratic', 3, 4, 'What')"), "QuWhattic");
  EXPECT_EQ(Value("INSERT('Quadratic', -1, 4, 'What')"), "Quadratic");
  EXPECT_EQ(Value("INSERT('Quadratic', 3, 100, 'What')"), "QuWhat");
  EXPECT_EQ(Value("INSERT('héllo', 2, 1, 'e')"), "hello");
  EXPECT_EQ(Value("CONCAT('[', SPACE(3), ']')"), "[   ]");
  EXPECT_EQ(Value("ASCII('2')"), "50");
  EXPECT_EQ(Value("ASCII('')"), "0");
  EXPECT_EQ(Value("ORD('é')"), "50089");
  EXPECT_EQ(Value("STRCMP('text', 'text2')"), "-1");
  EXPECT_EQ(Value("STRCMP('text2', 'text')"), "1");
  EXPECT_EQ(Value("STRCMP('a', 'A')"), "0");
  EXPECT_EQ(Value("CHAR(77, 121, 83, 81, '76')"), "MySQL");
  EXPECT_EQ(Value("HEX(CHAR(256, NULL, 1))"), "010001");
  EXPECT_EQ(Type("CHAR(65)").charset, mysql::charset::kBinary);
  EXPECT_EQ(Value("QUOTE('Don\\'t!')"), "'Don\\'t!'");
  EXPECT_EQ(Value("QUOTE(NULL)"), "NULL");
  EXPECT_EQ(Value("SOUNDEX('Hello')"), "H400");
  EXPECT_EQ(Value("SOUNDEX('Quadratically')"), "Q36324");
  EXPECT_EQ(Value("SOUNDEX('Tymczak')"), "T520");
  EXPECT_EQ(Value("MAKE_SET(1 | 4, 'hello', 'nice', 'world')"), "hello,world");
  EXPECT_EQ(Value("MAKE_SET(1 | 4, 'hello', 'nice', NULL, 'world')"), "hello");
  EXPECT_EQ(Value("EXPORT_SET(5, 'Y', 'N', ',', 4)"), "Y,N,Y,N");
  EXPECT_EQ(Value("EXPORT_SET(6, '1', '0', ',', 10)"), "0,1,1,0,0,0,0,0,0,0");
  EXPECT_EQ(Value("BIT_LENGTH('text')"), "32");
  EXPECT_EQ(Value("ISNULL(1 + 1)"), "0");
  EXPECT_EQ(Value("ISNULL(1 / 0)"), "1");
  EXPECT_EQ(Value("ANY_VALUE(3)"), "3");
  EXPECT_EQ(Value("FORMAT(12332.123456, 4)"), "12,332.1235");
  EXPECT_EQ(Value("FORMAT(12332.1, 4)"), "12,332.1000");
  EXPECT_EQ(Value("FORMAT(12332.2, 0)"), "12,332");
  EXPECT_EQ(Value("FORMAT(-1234567.891, 2)"), "-1,234,567.89");
  EXPECT_EQ(Value("FORMAT(123, 2)"), "123.00");
  EXPECT_EQ(Value("FORMAT(1234.5e0, 0)"), "1,234");  // a DOUBLE rounds half to even
  EXPECT_EQ(Value("FORMAT(12332.2, 2, 'en_US')"), "12,332.20");
  EXPECT_EQ(ErrorCode("FORMAT(1, 2, 'de_DE')"), 1235);
}

TEST_F(FunctionsTest, WeeksAndDurations) {
  EXPECT_EQ(Value("WEEK('2008-02-20')"), "7");
  EXPECT_EQ(Value("WEEK('2008-02-20', 1)"), "8");
  EXPECT_EQ(Value("WEEK('2008-12-31', 1)"), "53");
  EXPECT_EQ(Value("WEEK('2000-01-01', 0)"), "0");
  EXPECT_EQ(Value("WEEK('2000-01-01', 2)"), "52");
  EXPECT_EQ(Value("YEARWEEK('1987-01-01')"), "198652");
  EXPECT_EQ(Value("WEEKOFYEAR('2008-02-20')"), "8");
  EXPECT_EQ(Value("DATE_FORMAT('1999-01-01', '%X %V %x %v %U %u')"), "1998 52 1998 53 00 00");
  EXPECT_EQ(Value("MAKETIME(12, 15, 30)"), "12:15:30");
  EXPECT_EQ(Value("MAKETIME(12, 60, 30)"), "NULL");
  EXPECT_EQ(Value("MAKETIME(-1, 0, 1.5)"), "-01:00:01.5");
  EXPECT_EQ(Value("MAKETIME(900, 0, 0)"), "838:59:59");
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_EQ(warnings_[0].message, "Truncated incorrect time value: '900:00:00'");
  EXPECT_EQ(Value("TIME_FORMAT('100:00:00', '%H %k %h %I %l')"), "100 100 04 04 4");
  EXPECT_EQ(Value("TIME_FORMAT('10:05:03', '%Y')"), "NULL");
  EXPECT_EQ(Value("TIMEDIFF('2000-01-01 00:00:00', '2000-01-01 00:00:00.000001')"),
            "-00:00:00.000001");
  EXPECT_EQ(Value("TIMEDIFF('2008-12-31 23:59:59.000001', '2008-12-30 01:01:01.000002')"),
            "46:58:57.999999");
  EXPECT_EQ(Value("TIMEDIFF('10:00:00', '2000-01-01 00:00:00')"), "NULL");
  // Dates as strings are dates and times, not durations: a year apart is past TIME's range.
  EXPECT_EQ(Value("TIMEDIFF('2024-01-01', '2023-01-01')"), "838:59:59");
  EXPECT_EQ(Value("ADDTIME('800:00:00', '100:00:00')"), "838:59:59");
  EXPECT_EQ(Type("TIMEDIFF('10:00:00.5', '01:00:00')").decimals, 1);
  EXPECT_EQ(Value("ADDTIME('2007-12-31 23:59:59.999999', '1 1:1:1.000002')"),
            "2008-01-02 01:01:01.000001");
  EXPECT_EQ(Value("ADDTIME('01:00:00.999999', '02:00:00.999998')"), "03:00:01.999997");
  EXPECT_EQ(Value("SUBTIME('2007-12-31 23:59:59.999999', '1 1:1:1.000002')"),
            "2007-12-30 22:58:58.999997");
  EXPECT_EQ(Value("SUBTIME('01:00:00.999999', '02:00:00.999998')"), "-00:59:59.999999");
  EXPECT_EQ(Value("ADDTIME('10:00:00', '01:00:00')"), "11:00:00");
  EXPECT_EQ(Value("ADDTIME('2024-01-01 10:00:00', '2024-01-01 01:00:00')"), "NULL");
  EXPECT_EQ(Type("ADDTIME(CURTIME(), '01:00:00')").type, ColumnType::kTime);
  EXPECT_EQ(Type("ADDTIME(NOW(), '01:00:00')").type, ColumnType::kDateTime);
  EXPECT_EQ(Value("PERIOD_ADD(200801, 2)"), "200803");
  EXPECT_EQ(Value("PERIOD_ADD(9912, 1)"), "200001");
  EXPECT_EQ(Value("PERIOD_DIFF(200802, 200703)"), "11");
  EXPECT_EQ(Value("PERIOD_ADD(2013, 1)"), "error 1210: Incorrect arguments to period_add");
  EXPECT_EQ(Value("TO_SECONDS(950501)"), "62966505600");
  EXPECT_EQ(Value("TO_SECONDS('2009-11-29 13:43:32')"), "63426721412");
  EXPECT_EQ(Value("TIME('2003-12-31 01:02:03')"), "01:02:03");
  EXPECT_EQ(Value("TIME('2003-12-31 01:02:03.000123')"), "01:02:03.000123");
  EXPECT_EQ(Type("TIME('2003-12-31 01:02:03.000123')").decimals, 6);
  EXPECT_EQ(Value("TIMESTAMP('2003-12-31')"), "2003-12-31 00:00:00");
  EXPECT_EQ(Value("TIMESTAMP('2003-12-31 12:00:00', '12:00:00')"), "2004-01-01 00:00:00");
  EXPECT_EQ(Type("TIMESTAMP('2003-12-31')").type, ColumnType::kDateTime);
}

}  // namespace
}  // namespace shoal::sql
