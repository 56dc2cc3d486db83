#!/usr/bin/env python3
"""Generated statements for the differential SQL corpus (tests/integration/sql_corpus_test.sh).

Prints `--count` SELECTs over the shop tables of sql_corpus/setup.sql, drawn with a fixed seed
so that every run asks the same: joins of two to four tables along their keys (inner and
LEFT), WHERE conditions on numbers, dates and NULLs, aggregates under GROUP BY and HAVING,
DISTINCT, UNION, IN and EXISTS subqueries (correlated too), window functions, ORDER BY every
output column (so the order is the servers' common one) and LIMIT. Strings are compared only
where no two values differ by case alone, as the servers order and group those differently.

    tests/integration/sql_corpus_gen.py [--seed N] [--count N] > generated.sql
"""
import argparse
import random

# table: (alias, [(column, kind)]); kinds: int, num (decimal), date, str (no case twins).
TABLES = {
    "customer": ("c", [("id", "int"), ("name", "str"), ("referred_by", "int")]),
    "orders": ("o", [("id", "int"), ("customer_id", "int"), ("placed", "date"),
                     ("status", "str")]),
    "order_line": ("l", [("order_id", "int"), ("line", "int"), ("item_id", "int"),
                         ("qty", "int")]),
    "item": ("i", [("id", "int"), ("name", "str"), ("qty", "int"), ("price", "num"),
                   ("category", "str")]),
}

# How a table joins one already in the statement: (new, old, condition).
LINKS = [
    ("orders", "customer", "o.customer_id = c.id"),
    ("customer", "orders", "c.id = o.customer_id"),
    ("order_line", "orders", "l.order_id = o.id"),
    ("orders", "order_line", "o.id = l.order_id"),
    ("item", "order_line", "i.id = l.item_id"),
    ("order_line", "item", "l.item_id = i.id"),
    ("customer", "customer", None),  # a self join is drawn apart
]

VALUES = {
    "int": ["0", "1", "2", "3", "5", "10", "12", "15", "100"],
    "num": ["1.25", "3.99", "10", "12.50", "25"],
    "date": ["'2024-01-31'", "'2024-02-03'", "'2024-03-01'"],
    "str": ["'ann'", "'bob'", "'paid'", "'open'", "'tool'", "'part'", "'saw'"],
}


def columns_of(tables):
    return [(TABLES[t][0] + "." + c, k) for t in tables for c, k in TABLES[t][1]]


def condition(rng, cols, nullable=()):
    # No condition on the tables a LEFT JOIN may make NULL: MariaDB then turns the join inner
    # and types the columns it constrains NOT NULL, metadata MySQL 8.0 does not change.
    col, kind = rng.choice([c for c in cols if c[0].split(".")[0] not in nullable])
    roll = rng.random()
    if roll < 0.15:
        return f"{col} IS {'NOT ' if rng.random() < 0.5 else ''}NULL"
    if kind == "str":
        values = ", ".join(rng.sample(VALUES["str"], 2))
        return f"{col} IN ({values})" if roll < 0.5 else f"{col} = {rng.choice(VALUES['str'])}"
    value = rng.choice(VALUES[kind])
    if roll < 0.35 and kind != "date":
        low, high = sorted(rng.sample(VALUES[kind], 2), key=float)
        return f"{col} BETWEEN {low} AND {high}"
    if roll < 0.5 and kind == "int":
        return f"{col} IN ({', '.join(rng.sample(VALUES['int'], 3))})"
    return f"{col} {rng.choice(['=', '<', '>', '<=', '>=', '<>'])} {value}"


def from_clause(rng):
    """Two to four tables joined along their keys; returns (text, tables, aliases a LEFT JOIN
    may make NULL)."""
    first = rng.choice(list(TABLES))
    tables = [first]
    nullable = []
    text = f"{first} {TABLES[first][0]}"
    for _ in range(rng.randint(1, 3)):
        options = [(new, cond) for new, old, cond in LINKS
                   if cond and old in tables and new not in tables]
        if not options:
            break
        new, cond = rng.choice(options)
        join = "LEFT JOIN" if rng.random() < 0.3 else "JOIN"
        if join == "LEFT JOIN":
            nullable.append(TABLES[new][0])
        text += f" {join} {new} {TABLES[new][0]} ON {cond}"
        tables.append(new)
    return text, tables, nullable


def where(rng, cols, nullable):
    parts = [condition(rng, cols, nullable) for _ in range(rng.randint(0, 2))]
    if not parts:
        return ""
    glue = " OR " if len(parts) > 1 and rng.random() < 0.3 else " AND "
    return " WHERE " + glue.join(parts)


def plain_select(rng):
    text, tables, nullable = from_clause(rng)
    cols = columns_of(tables)
    shown = rng.sample(cols, min(len(cols), rng.randint(1, 4)))
    items = [c for c, _ in shown]
    distinct = "DISTINCT " if rng.random() < 0.2 else ""
    order = ", ".join(items)
    limit = f" LIMIT {rng.randint(1, 5)}" if rng.random() < 0.2 else ""
    return f"SELECT {distinct}{', '.join(items)} FROM {text}{where(rng, cols, nullable)} ORDER BY {order}{limit}"


def grouped_select(rng):
    text, tables, nullable = from_clause(rng)
    cols = columns_of(tables)
    key, _ = rng.choice([c for c in cols if c[1] in ("int", "str", "date")])
    numbers = [c for c, k in cols if k in ("int", "num")]
    aggs = [rng.choice(["COUNT(*)", f"COUNT({rng.choice(numbers)})", f"SUM({rng.choice(numbers)})",
                        f"MIN({rng.choice(numbers)})", f"MAX({rng.choice(numbers)})",
                        f"COUNT(DISTINCT {rng.choice(numbers)})"]) for _ in range(rng.randint(1, 2))]
    aliases = [f"a{i}" for i in range(len(aggs))]
    items = [key] + [f"{a} AS {n}" for a, n in zip(aggs, aliases)]
    having = f" HAVING a0 > {rng.choice(['0', '1', '2'])}" if rng.random() < 0.3 else ""
    return (f"SELECT {', '.join(items)} FROM {text}{where(rng, cols, nullable)} GROUP BY {key}{having} "
            f"ORDER BY {key}, {', '.join(aliases)}")


def subquery_select(rng):
    shape = rng.randrange(4)
    if shape == 0:
        status = rng.choice(["'paid'", "'open'", "'void'"])
        neg = "NOT " if rng.random() < 0.4 else ""
        return (f"SELECT c.id, c.name FROM customer c WHERE c.id {neg}IN (SELECT o.customer_id "
                f"FROM orders o WHERE o.status = {status} AND o.customer_id IS NOT NULL) ORDER BY c.id")
    if shape == 1:
        neg = "NOT " if rng.random() < 0.5 else ""
        qty = rng.choice(VALUES["int"])
        return (f"SELECT o.id FROM orders o WHERE {neg}EXISTS (SELECT 1 FROM order_line l "
                f"WHERE l.order_id = o.id AND l.qty > {qty}) ORDER BY o.id")
    if shape == 2:
        return (f"SELECT i.id, i.price FROM item i WHERE i.price > (SELECT AVG(price) FROM item "
                f"WHERE qty > {rng.choice(['0', '1', '3'])}) ORDER BY i.id")
    a = condition(rng, columns_of(["orders"]))
    b = condition(rng, columns_of(["orders"]))
    all_ = "ALL " if rng.random() < 0.5 else ""
    return (f"SELECT o.id, o.status FROM orders o WHERE {a} UNION {all_}"
            f"SELECT o.id, o.status FROM orders o WHERE {b} ORDER BY 1, 2")


def window_select(rng):
    fn = rng.choice(["ROW_NUMBER()", "RANK()", "DENSE_RANK()", "SUM(l.qty)", "COUNT(*)",
                     "MAX(l.qty)", "LAG(l.qty)", "LEAD(l.line)"])
    part = "PARTITION BY l.order_id " if rng.random() < 0.6 else ""
    # A total order (the key breaks ties): peers in another order would give other values.
    order = rng.choice(["ORDER BY l.line, l.order_id", "ORDER BY l.qty, l.order_id, l.line",
                        "ORDER BY l.item_id, l.order_id, l.line"])
    if fn.startswith(("SUM", "COUNT", "MAX")) and rng.random() < 0.3:
        order = ""  # the whole partition
    return (f"SELECT l.order_id AS order_no, l.line AS line_no, {fn} OVER ({part}{order}) AS w "
            f"FROM order_line l ORDER BY l.order_id, l.line")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--count", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    makers = [plain_select] * 4 + [grouped_select] * 3 + [subquery_select] * 2 + [window_select]
    print(f"-- Generated by tests/integration/sql_corpus_gen.py --seed {args.seed} "
          f"--count {args.count}")
    for _ in range(args.count):
        print(rng.choice(makers)(rng) + ";")


if __name__ == "__main__":
    main()
