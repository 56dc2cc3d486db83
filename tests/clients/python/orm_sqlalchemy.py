"""SQLAlchemy 2 and Alembic, unmodified, against one server (Shoal's router or MariaDB).

    orm_sqlalchemy.py URL        e.g. mysql+pymysql://root@/app?unix_socket=/tmp/r.sock

Declares a shop (customers and their orders, a FOREIGN KEY … ON DELETE CASCADE between them),
has SQLAlchemy create it, reflect it and run the ORM over it (inserts, a relationship loaded
with IN, a join, an aggregate, updates, deletes), reflects and reads a view, checks the
constraint (a Core DELETE of a customer deletes its orders, an order of no customer is refused
with 1452); then Alembic's autogenerate compares the database with a changed model (a column added, one retyped, an index
added), applies the migration it produces (ALTER TABLE …), finds nothing left to do, and
applies the downgrade back. Exits non-zero, with what differed, on the first failure.
"""

import sys

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata, produce_migrations
from alembic.migration import MigrationContext
from alembic.operations import Operations
from alembic.operations import ops as alembic_ops
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship


def check(what, got, want):
    if got != want:
        print(f"FAIL {what}: got {got!r}, want {want!r}", file=sys.stderr)
        sys.exit(1)


class Base(DeclarativeBase):
    pass


class Customer(Base):
    __tablename__ = "customer"
    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(sa.String(40))
    email: Mapped[str | None] = mapped_column(sa.String(80), unique=True)
    orders: Mapped[list["Order"]] = relationship(
        order_by="Order.id", lazy="selectin", back_populates="customer"
    )


class Order(Base):
    __tablename__ = "orders"
    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    customer_id: Mapped[int] = mapped_column(
        sa.ForeignKey("customer.id", ondelete="CASCADE"), index=True
    )
    total: Mapped[float] = mapped_column(sa.Numeric(10, 2))
    note: Mapped[str | None] = mapped_column(sa.String(20))
    customer: Mapped[Customer] = relationship(back_populates="orders")


def changed_metadata():
    """The model after a change: orders gains `shipped` and an index on note, note grows."""
    md = sa.MetaData()
    sa.Table(
        "customer",
        md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("email", sa.String(80), unique=True),
    )
    sa.Table(
        "orders",
        md,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "customer_id",
            sa.Integer,
            sa.ForeignKey("customer.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("total", sa.Numeric(10, 2), nullable=False),
        sa.Column("note", sa.String(40)),
        sa.Column("shipped", sa.Boolean, nullable=True),
        sa.Index("ix_orders_note", "note"),
    )
    return md


def flatten(operations):
    for op in operations:
        if isinstance(op, alembic_ops.OpContainer):
            yield from flatten(op.ops)
        else:
            yield op


def migrate(conn, container):
    operations = Operations(MigrationContext.configure(conn))
    for op in flatten(container.ops):
        operations.invoke(op)


def found_rows(url):
    """An UPDATE that leaves a row as it was: rowcount 0, or 1 for a client that asked for
    found rows (CLIENT_FOUND_ROWS: Django's and SQLAlchemy's MySQL drivers do)."""
    import pymysql
    from pymysql.constants import CLIENT

    socket = url.split("unix_socket=", 1)[1]
    for flag, want in ((0, [0, 0]), (CLIENT.FOUND_ROWS, [1, 2])):
        conn = pymysql.connect(unix_socket=socket, user="root", database="app", client_flag=flag)
        with conn.cursor() as cur:
            cur.execute("CREATE TABLE IF NOT EXISTS same (id INT PRIMARY KEY, v INT, w INT)")
            cur.execute("REPLACE INTO same VALUES (1, 5, 0), (2, 5, 0)")
            got = [cur.execute("UPDATE same SET v = 5 WHERE id = 1"),  # by key
                   cur.execute("UPDATE same SET w = 0 WHERE w = 0")]  # by scan
            cur.execute("DROP TABLE same")
        conn.commit()
        conn.close()
        check(f"rowcount of unchanged updates, client_flag={flag}", got, want)


def main():
    found_rows(sys.argv[1])
    engine = sa.create_engine(sys.argv[1])
    Base.metadata.drop_all(engine)
    Base.metadata.create_all(engine)

    inspector = sa.inspect(engine)
    check("tables", sorted(inspector.get_table_names()), ["customer", "orders"])
    columns = {c["name"]: c for c in inspector.get_columns("orders")}
    check("orders columns", list(columns), ["id", "customer_id", "total", "note"])
    check("total type", str(columns["total"]["type"]), "DECIMAL(10, 2)")
    check("note nullable", columns["note"]["nullable"], True)
    check("orders pk", inspector.get_pk_constraint("orders")["constrained_columns"], ["id"])
    check(
        "orders indexes",
        [(i["name"], i["column_names"]) for i in inspector.get_indexes("orders")],
        [("ix_orders_customer_id", ["customer_id"])],
    )
    check(
        "orders foreign keys",
        [
            (k["constrained_columns"], k["referred_table"], k["referred_columns"], k["options"])
            for k in inspector.get_foreign_keys("orders")
        ],
        [(["customer_id"], "customer", ["id"], {"ondelete": "CASCADE"})],
    )
    check(
        "customer unique",
        [c["column_names"] for c in inspector.get_unique_constraints("customer")],
        [["email"]],
    )

    with Session(engine) as session:
        ann = Customer(name="ann", email="ann@example.com")
        bob = Customer(name="bob")
        session.add_all([ann, bob])
        session.flush()
        session.add_all(
            [
                Order(customer_id=ann.id, total=10.5, note="first"),
                Order(customer_id=ann.id, total=4.25),
                Order(customer_id=bob.id, total=99),
            ]
        )
        session.commit()

    with Session(engine) as session:
        people = session.scalars(sa.select(Customer).order_by(Customer.name)).all()
        check("orders per customer", [(c.name, len(c.orders)) for c in people], [("ann", 2), ("bob", 1)])
        rows = session.execute(
            sa.select(Customer.name, sa.func.sum(Order.total), sa.func.count(Order.id))
            .join(Order, Order.customer_id == Customer.id)
            .group_by(Customer.name)
            .order_by(Customer.name)
        ).all()
        check("totals", [(n, str(t), c) for n, t, c in rows], [("ann", "14.75", 2), ("bob", "99.00", 1)])
        order = session.scalars(sa.select(Order).where(Order.note == "first")).one()
        check("order's customer", order.customer.name, "ann")
        order.total = 11
        session.delete(people[1].orders[0])
        session.commit()
        check("after update", str(session.scalar(sa.select(sa.func.sum(Order.total)))), "15.25")
        check("after delete", session.scalar(sa.select(sa.func.count()).select_from(Order)), 2)

    # A view: listed apart from the tables, reflected (SHOW CREATE TABLE names a view, so the
    # dialect reads DESCRIBE), read through Core, then dropped.
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "CREATE VIEW customer_totals AS SELECT c.name, SUM(o.total) AS total, "
                "COUNT(*) AS n FROM customer c JOIN orders o ON o.customer_id = c.id "
                "GROUP BY c.name"
            )
        )
    inspector = sa.inspect(engine)
    check("views", inspector.get_view_names(), ["customer_totals"])
    check("tables beside the view", sorted(inspector.get_table_names()), ["customer", "orders"])
    totals = sa.Table("customer_totals", sa.MetaData(), autoload_with=engine)
    check(
        "view columns",
        [(c.name, str(c.type)) for c in totals.columns],
        [("name", "VARCHAR(40)"), ("total", "DECIMAL(32, 2)"), ("n", "BIGINT")],
    )
    with engine.connect() as conn:
        rows = conn.execute(sa.select(totals).where(totals.c.n > 0).order_by(totals.c.name)).all()
        check("view rows", [(n, str(t), c) for n, t, c in rows], [("ann", "15.25", 2)])
    with engine.begin() as conn:
        conn.execute(sa.text("DROP VIEW customer_totals"))

    # The FOREIGN KEY itself, under Core: ON DELETE CASCADE, and 1452 for a missing customer.
    customers, orders = Customer.__table__, Order.__table__
    with engine.begin() as conn:
        cid = conn.execute(sa.insert(customers).values(name="cat")).inserted_primary_key[0]
        conn.execute(sa.insert(orders), [{"customer_id": cid, "total": t} for t in (1, 2)])
        of_cat = sa.select(sa.func.count()).where(orders.c.customer_id == cid)
        check("cat's orders", conn.scalar(of_cat), 2)
        deleted = conn.execute(sa.delete(customers).where(customers.c.id == cid)).rowcount
        check("customers deleted", deleted, 1)
        check("orders cascaded", conn.scalar(of_cat), 0)
    try:
        with engine.begin() as conn:
            conn.execute(sa.insert(orders).values(customer_id=cid + 1000, total=5))
    except sa.exc.IntegrityError as e:
        check("order of no customer: error", e.orig.args[0], 1452)
    else:
        check("order of no customer: refused", "inserted", "IntegrityError 1452")
    with engine.connect() as conn:
        check("orders after", conn.scalar(sa.select(sa.func.count()).select_from(orders)), 2)

    with engine.begin() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        check("nothing to migrate at first", diff, [])
        target = changed_metadata()
        migration = produce_migrations(MigrationContext.configure(conn), target)
        kinds = sorted(type(op).__name__ for op in flatten(migration.upgrade_ops.ops))
        check("upgrade ops", kinds, ["AddColumnOp", "AlterColumnOp", "CreateIndexOp"])
        migrate(conn, migration.upgrade_ops)
    with engine.begin() as conn:
        check("migrated", compare_metadata(MigrationContext.configure(conn), target), [])
        check(
            "rows kept",
            conn.execute(sa.text("SELECT note, total, shipped FROM orders ORDER BY id")).all(),
            [("first", 11, None), (None, 4.25, None)],
        )
        conn.execute(sa.text("UPDATE orders SET shipped = 1, note = 'shipped'"))
    with engine.begin() as conn:
        migrate(conn, migration.downgrade_ops)
    with engine.begin() as conn:
        check("downgraded", compare_metadata(MigrationContext.configure(conn), Base.metadata), [])
        check(
            "cut back",
            [c["name"] for c in sa.inspect(conn).get_columns("orders")],
            ["id", "customer_id", "total", "note"],
        )
    Base.metadata.drop_all(engine)
    print("ok")


if __name__ == "__main__":
    main()
