"""Django 4.2, unmodified, against one server (Shoal's router or MariaDB), over PyMySQL.

    orm_django.py SOCKET DATABASE [--keep-going]

Settings are made in code: django.contrib's auth, contenttypes, sessions, admin and messages,
and an app of the script's own, written to a temp dir (a shop: authors, their books with tags
and reviews; foreign keys, a many-to-many, a unique constraint over two columns, unique
columns, indexes of one and two columns). makemigrations writes the app's migration, migrate
applies every app's; then the ORM: CRUD, bulk_create, get_or_create / update_or_create, joins
(select_related, filters across foreign keys and the many-to-many, prefetch_related),
aggregates (annotate with Count and Sum, values, aggregate), F() updates, nested
transaction.atomic() (a savepoint rolled back by an IntegrityError, one by an exception, one
kept, an outer block rolled back whole), the database's FOREIGN KEY constraints (1452 for a
missing author, 1451 for a raw DELETE of an author with books), on_delete=CASCADE and SET_NULL
through the ORM, sessions, users and the admin log; last, the app's migrations are unapplied
(migrate shopapp zero). Prints a summary that does not change between runs and exits 0 only if
every check passed.

With --keep-going every statement the server refuses is recorded (its error and SQL) and the
run goes on, as do failed checks; the refusals are printed grouped by error at the end (exit 1
if there were any): for a server that does not do everything yet.
"""

import collections
import contextlib
import datetime
import decimal
import os
import shutil
import sys
import tempfile
import textwrap
import threading

import pymysql

pymysql.install_as_MySQLdb()
if pymysql.version_info < (1, 4, 3):  # Django 4.2 asks mysqlclient >= 1.4.3 of the shim
    pymysql.version_info = (1, 4, 6, "final", 0)

MODELS = """
from django.conf import settings
from django.db import models


class Author(models.Model):
    name = models.CharField(max_length=50, unique=True)
    email = models.CharField(max_length=80, null=True, blank=True)
    born = models.DateField(null=True)

    class Meta:
        indexes = [models.Index(fields=["email"], name="author_email_idx")]

    def __str__(self):
        return self.name


class Tag(models.Model):
    name = models.CharField(max_length=20, unique=True)


class Book(models.Model):
    author = models.ForeignKey(Author, on_delete=models.CASCADE, related_name="books")
    title = models.CharField(max_length=100)
    price = models.DecimalField(max_digits=8, decimal_places=2)
    published = models.DateField(null=True)
    in_stock = models.BooleanField(default=True)
    tags = models.ManyToManyField(Tag, related_name="books", blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["author", "title"], name="book_author_title_uniq")
        ]
        indexes = [models.Index(fields=["published", "price"], name="book_published_price_idx")]


class Review(models.Model):
    book = models.ForeignKey(Book, on_delete=models.CASCADE, related_name="reviews")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    stars = models.PositiveSmallIntegerField()
    body = models.TextField(blank=True)
"""

keep_going = False
failures = []  # failed checks
refused = []  # (code, message, sql) the server refused, with --keep-going
expecting = threading.local()  # set while a check expects the server to refuse


def check(what, got, want):
    if got == want:
        return
    message = f"FAIL {what}: got {got!r}, want {want!r}"
    print(message, file=sys.stderr)
    if not keep_going:
        sys.exit(1)
    failures.append(message)


@contextlib.contextmanager
def expect_error(what, exception, code):
    """The block must raise `exception` whose MySQL error code is `code`."""
    expecting.on = True
    try:
        yield
    except exception as e:
        check(f"{what}: error code", e.args[0] if e.args else None, code)
    else:
        check(f"{what}: raised", None, exception.__name__)
    finally:
        expecting.on = False


def record_refusals(execute, sql, params, many, context):
    """With --keep-going: what the server refuses is noted and the run goes on."""
    from django.db import DatabaseError

    try:
        return execute(sql, params, many, context)
    except DatabaseError as e:
        if getattr(expecting, "on", False):
            raise
        code = e.args[0] if e.args else None
        message = e.args[1] if len(e.args) > 1 else str(e)
        try:  # the statement as sent, its parameters quoted in
            statement = context["connection"].connection.cursor().mogrify(sql, params)
        except Exception:
            statement = f"{sql} -- {params!r}"
        statement = " ".join(statement.split())
        refused.append((code, message, statement))
        print(f"refused ({code}): {message}\n    {statement[:300]}", file=sys.stderr)
        return None


def configure(socket, database, app_dir):
    from django.conf import settings

    settings.configure(
        DEBUG=False,
        SECRET_KEY="orm-django-test",
        ALLOWED_HOSTS=["*"],
        INSTALLED_APPS=[
            "django.contrib.admin",
            "django.contrib.auth",
            "django.contrib.contenttypes",
            "django.contrib.sessions",
            "django.contrib.messages",
            "shopapp",
        ],
        MIDDLEWARE=[
            "django.contrib.sessions.middleware.SessionMiddleware",
            "django.contrib.auth.middleware.AuthenticationMiddleware",
            "django.contrib.messages.middleware.MessageMiddleware",
        ],
        TEMPLATES=[
            {
                "BACKEND": "django.template.backends.django.DjangoTemplates",
                "APP_DIRS": True,
                "OPTIONS": {
                    "context_processors": [
                        "django.template.context_processors.request",
                        "django.contrib.auth.context_processors.auth",
                        "django.contrib.messages.context_processors.messages",
                    ]
                },
            }
        ],
        DATABASES={
            "default": {
                "ENGINE": "django.db.backends.mysql",
                "NAME": database,
                "USER": "root",
                "PASSWORD": "",
                "HOST": socket,  # a path: Django passes it as unix_socket
                "OPTIONS": {"charset": "utf8mb4"},
            }
        },
        DEFAULT_AUTO_FIELD="django.db.models.BigAutoField",
        USE_TZ=True,
        TIME_ZONE="UTC",
        # The default PBKDF2 takes a while per password; the test is not about hashing.
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    )
    sys.path.insert(0, app_dir)


def write_app(app_dir):
    package = os.path.join(app_dir, "shopapp")
    os.makedirs(os.path.join(package, "migrations"))
    for name, text in (
        ("__init__.py", ""),
        ("migrations/__init__.py", ""),
        ("models.py", textwrap.dedent(MODELS)),
    ):
        with open(os.path.join(package, name), "w") as f:
            f.write(text)


def drop_everything(connection):
    """The database may hold an earlier run's tables."""
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        if tables:
            cursor.execute("SET FOREIGN_KEY_CHECKS = 0")
            for table in tables:
                cursor.execute("DROP TABLE %s" % connection.ops.quote_name(table))
            cursor.execute("SET FOREIGN_KEY_CHECKS = 1")


def run(summary):
    from django.contrib.admin.models import ADDITION, LogEntry
    from django.contrib.auth.models import Permission, User
    from django.contrib.contenttypes.models import ContentType
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command
    from django.db import IntegrityError, connection, transaction
    from django.db.models import Avg, Count, F, Max, Q, Sum

    from shopapp.models import Author, Book, Review, Tag

    D = decimal.Decimal

    # -- Schema: migrations written and applied, then what the database says it has.
    call_command("makemigrations", "shopapp", verbosity=0)
    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        tables = set(connection.introspection.table_names(cursor))
        shop = sorted(t for t in tables if t.startswith("shopapp_"))
        check(
            "shop tables",
            shop,
            [
                "shopapp_author",
                "shopapp_book",
                "shopapp_book_tags",
                "shopapp_review",
                "shopapp_tag",
            ],
        )
        for t in (
            "auth_user",
            "auth_permission",
            "django_content_type",
            "django_session",
            "django_admin_log",
            "django_migrations",
        ):
            check(f"table {t}", t in tables, True)
        book = connection.introspection.get_constraints(cursor, "shopapp_book")
        uniq = sorted(
            tuple(c["columns"]) for c in book.values() if c["unique"] and not c["primary_key"]
        )
        check("book unique constraints", uniq, [("author_id", "title")])
        indexed = sorted(
            tuple(c["columns"]) for c in book.values() if c["index"] and not c["unique"]
        )
        check("book indexes include (published, price)", ("published", "price") in indexed, True)
        fks = sorted(
            (tuple(c["columns"]), c["foreign_key"]) for c in book.values() if c["foreign_key"]
        )
        check("book foreign keys", fks, [(("author_id",), ("shopapp_author", "id"))])
        relations = connection.introspection.get_relations(cursor, "shopapp_review")
        check(
            "review relations",
            sorted(relations.items()),
            [("book_id", ("id", "shopapp_book")), ("reviewer_id", ("id", "auth_user"))],
        )
    applied = connection.cursor()
    applied.execute("SELECT COUNT(*) FROM django_migrations WHERE app = 'shopapp'")
    check("shopapp migrations applied", applied.fetchone(), (1,))
    applied.close()
    summary.append(f"tables: {len(shop)} shopapp, auth/contenttypes/sessions/admin present")
    check(
        "permissions of the shop",
        Permission.objects.filter(content_type__app_label="shopapp").count(),
        16,
    )

    # -- CRUD.
    ann = Author.objects.create(name="ann", email="ann@example.com", born=datetime.date(1970, 5, 1))
    bob = Author.objects.create(name="bob")
    Author.objects.bulk_create([Author(name="cid"), Author(name="dee", email="dee@example.com")])
    cid = Author.objects.get(name="cid")
    tags = {n: Tag.objects.create(name=n) for n in ("sf", "crime", "poetry")}
    # An upsert: to a MySQL 8 server Django writes INSERT … AS new ON DUPLICATE KEY UPDATE
    # name = new.name (VALUE(name) to MariaDB).
    Tag.objects.bulk_create(
        [Tag(name="sf"), Tag(name="crime")],
        update_conflicts=True,
        update_fields=["name"],
    )
    check("tags after an upsert of two", Tag.objects.count(), 3)
    books = {}
    for author, title, price, year, tagnames in (
        (ann, "dune", "9.50", 1965, ["sf"]),
        (ann, "emma", "4.25", 1815, []),
        (ann, "ubik", "7.00", 1969, ["sf", "crime"]),
        (bob, "odes", "12.00", None, ["poetry"]),
        (cid, "noir", "3.10", 1950, ["crime"]),
    ):
        b = Book.objects.create(
            author=author,
            title=title,
            price=D(price),
            published=datetime.date(year, 1, 1) if year else None,
        )
        b.tags.set([tags[n] for n in tagnames])
        books[title] = b
    check(
        "authors",
        list(Author.objects.order_by("name").values_list("name", flat=True)),
        ["ann", "bob", "cid", "dee"],
    )
    check("books", Book.objects.count(), 5)
    check("tagged", Book.tags.through.objects.count(), 5)
    book = Book.objects.get(title="emma")
    book.price = D("5.00")
    book.save(update_fields=["price"])
    check("price saved", Book.objects.get(pk=book.pk).price, D("5.00"))
    check("created set", Book.objects.filter(created__isnull=True).count(), 0)
    tag, made = Tag.objects.get_or_create(name="sf")
    check("get_or_create finds", (tag.pk, made), (tags["sf"].pk, False))
    tag, made = Tag.objects.get_or_create(name="essay")
    check("get_or_create makes", made, True)
    author, made = Author.objects.update_or_create(name="dee", defaults={"email": "d@example.com"})
    check(
        "update_or_create updates",
        (made, Author.objects.get(name="dee").email),
        (False, "d@example.com"),
    )
    check("exists", Author.objects.filter(email__endswith="example.com").exists(), True)
    check(
        "slice",
        list(Book.objects.order_by("title").values_list("title", flat=True)[1:3]),
        ["emma", "noir"],
    )
    check(
        "null filter",
        list(Book.objects.filter(published__isnull=True).values_list("title", flat=True)),
        ["odes"],
    )
    check(
        "Q or",
        sorted(
            Book.objects.filter(Q(price__lt=5) | Q(title__startswith="u")).values_list(
                "title", flat=True
            )
        ),
        ["noir", "ubik"],
    )
    Tag.objects.filter(name="essay").delete()

    # -- Joins.
    rows = [
        (b.title, b.author.name)
        for b in Book.objects.select_related("author").filter(author__name="ann").order_by("title")
    ]
    check("select_related", rows, [("dune", "ann"), ("emma", "ann"), ("ubik", "ann")])
    check(
        "filter across the foreign key",
        sorted(Author.objects.filter(books__price__gt=8).values_list("name", flat=True)),
        ["ann", "bob"],
    )
    check(
        "filter across the many-to-many",
        sorted(Book.objects.filter(tags__name="crime").values_list("title", flat=True)),
        ["noir", "ubik"],
    )
    check(
        "authors of sf",
        list(
            Author.objects.filter(books__tags__name="sf").distinct().values_list("name", flat=True)
        ),
        ["ann"],
    )
    prefetched = {
        b.title: sorted(t.name for t in b.tags.all())
        for b in Book.objects.prefetch_related("tags").order_by("title")
    }
    check(
        "prefetch_related",
        prefetched,
        {
            "dune": ["sf"],
            "emma": [],
            "noir": ["crime"],
            "odes": ["poetry"],
            "ubik": ["crime", "sf"],
        },
    )
    check(
        "reverse relation",
        sorted(ann.books.values_list("title", flat=True)),
        ["dune", "emma", "ubik"],
    )

    # -- Aggregates.
    per_author = list(
        Author.objects.annotate(n=Count("books"), total=Sum("books__price"))
        .order_by("name")
        .values_list("name", "n", "total")
    )
    check(
        "annotate Count and Sum",
        per_author,
        [("ann", 3, D("21.50")), ("bob", 1, D("12.00")), ("cid", 1, D("3.10")), ("dee", 0, None)],
    )
    per_tag = list(
        Tag.objects.annotate(n=Count("books"))
        .filter(n__gt=0)
        .order_by("-n", "name")
        .values("name", "n")
    )
    check(
        "tags by use",
        per_tag,
        [{"name": "crime", "n": 2}, {"name": "sf", "n": 2}, {"name": "poetry", "n": 1}],
    )
    grouped = list(
        Book.objects.values("author__name").annotate(top=Max("price")).order_by("author__name")
    )
    check(
        "values then annotate",
        grouped,
        [
            {"author__name": "ann", "top": D("9.50")},
            {"author__name": "bob", "top": D("12.00")},
            {"author__name": "cid", "top": D("3.10")},
        ],
    )
    totals = Book.objects.aggregate(n=Count("id"), total=Sum("price"), avg=Avg("price"))
    check(
        "aggregate",
        (totals["n"], totals["total"], round(totals["avg"], 2)),
        (5, D("36.60"), D("7.32")),
    )
    changed = Book.objects.filter(author=ann).update(price=F("price") + 1)
    check("F() update rows", changed, 3)
    check("F() update", Book.objects.get(title="dune").price, D("10.50"))

    # -- Transactions: savepoints rolled back and kept inside one that commits.
    def savepoint_authors():
        names = ["outer", "doomed", "raised", "kept", "kept-deeper"]
        return sorted(Author.objects.filter(name__in=names).values_list("name", flat=True))

    with transaction.atomic():
        Author.objects.create(name="outer")
        try:
            with transaction.atomic():
                Author.objects.create(name="doomed")
                with expect_error("duplicate name", IntegrityError, 1062):
                    Author.objects.create(name="outer")
                raise IntegrityError("leave the savepoint")
        except IntegrityError:
            pass
        try:
            with transaction.atomic():
                Author.objects.create(name="raised")
                raise RuntimeError("boom")
        except RuntimeError:
            pass
        with transaction.atomic():
            Author.objects.create(name="kept")
            with transaction.atomic():
                Author.objects.create(name="kept-deeper")
        check("inside the outer block", savepoint_authors(), ["kept", "kept-deeper", "outer"])
    check("after commit", savepoint_authors(), ["kept", "kept-deeper", "outer"])
    try:
        with transaction.atomic():
            Author.objects.filter(name__startswith="kept").delete()
            Author.objects.create(name="gone")
            raise RuntimeError("roll back the whole block")
    except RuntimeError:
        pass
    check(
        "outer block rolled back",
        sorted(
            Author.objects.filter(name__in=["kept", "kept-deeper", "gone"]).values_list(
                "name", flat=True
            )
        ),
        ["kept", "kept-deeper"],
    )
    Author.objects.filter(name__in=["outer", "kept", "kept-deeper"]).delete()

    # -- The database's own FOREIGN KEY constraints.
    with expect_error("book of a missing author", IntegrityError, 1452):
        with transaction.atomic():
            Book.objects.create(author_id=999999, title="ghost", price=D("1.00"))
    with expect_error("raw DELETE of an author with books", IntegrityError, 1451):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("DELETE FROM shopapp_author WHERE id = %s", [bob.pk])
    with expect_error("unique (author, title)", IntegrityError, 1062):
        with transaction.atomic():
            Book.objects.create(author=ann, title="dune", price=D("1.00"))
    check("nothing left of the refused rows", Book.objects.filter(title="ghost").count(), 0)

    # -- Users, sessions, the admin log; on_delete SET_NULL and CASCADE.
    user = User.objects.create_user("reader", "reader@example.com", "s3cret")
    check("password", User.objects.get(username="reader").check_password("s3cret"), True)
    for title, stars in (("dune", 5), ("dune", 4), ("ubik", 3), ("odes", 2)):
        Review.objects.create(book=books[title], reviewer=user, stars=stars, body=f"{stars} stars")
    check(
        "reviews per book",
        list(
            Book.objects.annotate(n=Count("reviews"))
            .filter(n__gt=0)
            .order_by("title")
            .values_list("title", "n")
        ),
        [("dune", 2), ("odes", 1), ("ubik", 1)],
    )
    check(
        "average stars of ann's books",
        Review.objects.filter(book__author__name="ann").aggregate(a=Avg("stars"))["a"],
        4,
    )
    session = SessionStore()
    session["cart"] = [books["dune"].pk, books["odes"].pk]
    session.create()
    check(
        "session read back",
        SessionStore(session_key=session.session_key)["cart"],
        [books["dune"].pk, books["odes"].pk],
    )
    LogEntry.objects.log_action(
        user.pk,
        ContentType.objects.get_for_model(Book).pk,
        books["dune"].pk,
        "dune",
        ADDITION,
        change_message="added",
    )
    check("admin log", LogEntry.objects.filter(user=user, object_repr="dune").count(), 1)
    LogEntry.objects.filter(user=user).delete()
    user.delete()
    check("SET_NULL", Review.objects.filter(reviewer__isnull=True).count(), 4)
    ann.delete()  # CASCADE: her books, their reviews and tags
    check("cascade: books", sorted(Book.objects.values_list("title", flat=True)), ["noir", "odes"])
    check("cascade: reviews", Review.objects.count(), 1)
    check("cascade: tags", Book.tags.through.objects.count(), 2)
    check("tags themselves kept", Tag.objects.count(), 3)
    summary.append(
        "after CASCADE: books "
        + ", ".join(Book.objects.order_by("title").values_list("title", flat=True))
    )
    summary.append(
        "authors " + ", ".join(Author.objects.order_by("name").values_list("name", flat=True))
    )

    # -- The app's migrations unapplied: its tables dropped.
    call_command("migrate", "shopapp", "zero", verbosity=0)
    with connection.cursor() as cursor:
        left = sorted(
            t for t in connection.introspection.table_names(cursor) if t.startswith("shopapp_")
        )
    check("migrate shopapp zero", left, [])
    summary.append("migrate shopapp zero: its tables dropped")


def main():
    global keep_going
    args = [a for a in sys.argv[1:] if a != "--keep-going"]
    keep_going = len(args) != len(sys.argv) - 1
    if len(args) != 2:
        sys.exit(__doc__)
    socket, database = args

    app_dir = tempfile.mkdtemp(prefix="orm-django-")
    try:
        write_app(app_dir)
        configure(socket, database, app_dir)
        import django

        django.setup()
        from django.db import connection

        with contextlib.ExitStack() as stack:
            if keep_going:
                stack.enter_context(connection.execute_wrapper(record_refusals))
            drop_everything(connection)
            summary = []
            run(summary)
            drop_everything(connection)
    finally:
        shutil.rmtree(app_dir, ignore_errors=True)

    for line in summary:
        print(line)
    if refused:
        print(f"{len(refused)} statements refused:")
        groups = collections.defaultdict(list)
        for code, message, sql in refused:
            groups[(code, message)].append(sql)
        for (code, message), sqls in sorted(groups.items(), key=lambda g: (str(g[0][0]), g[0][1])):
            print(f"  ERROR {code}: {message} ({len(sqls)})")
            for sql in sqls:
                print(f"    {sql}")
    if failures:
        print(f"{len(failures)} checks failed:")
        for f in failures:
            print("  " + f)
    if refused or failures:
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
