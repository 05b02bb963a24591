"""On PostgreSQL the database itself refuses to change a signed (approved) review.

The services already refuse; these triggers also stop raw SQL, the shell and any future code path.
An approved review row cannot be updated or deleted at all; its candidates, sign-offs and reserved
links cannot be inserted, updated or deleted; audit events can never be updated or deleted.
SQLite has no such triggers here: the services and the admin are the guard there.
"""

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION reviews_signed_review_guard() RETURNS trigger AS $$
BEGIN
    IF OLD.state = 'approved' THEN
        RAISE EXCEPTION 'review % is approved (signed): it cannot be changed or deleted', OLD.id;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION reviews_signed_child_guard() RETURNS trigger AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND EXISTS (
        SELECT 1 FROM reviews_review WHERE id = OLD.review_id AND state = 'approved'
    ) THEN
        RAISE EXCEPTION '% of approved review % refused on %', TG_OP, OLD.review_id, TG_TABLE_NAME;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND EXISTS (
        SELECT 1 FROM reviews_review WHERE id = NEW.review_id AND state = 'approved'
    ) THEN
        RAISE EXCEPTION '% into approved review % refused on %', TG_OP, NEW.review_id, TG_TABLE_NAME;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION reviews_audit_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit events are append-only: % refused', TG_OP;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS reviews_review_signed ON reviews_review;
CREATE TRIGGER reviews_review_signed BEFORE UPDATE OR DELETE ON reviews_review
    FOR EACH ROW EXECUTE FUNCTION reviews_signed_review_guard();

DROP TRIGGER IF EXISTS reviews_candidate_signed ON reviews_candidate;
CREATE TRIGGER reviews_candidate_signed BEFORE INSERT OR UPDATE OR DELETE ON reviews_candidate
    FOR EACH ROW EXECUTE FUNCTION reviews_signed_child_guard();

DROP TRIGGER IF EXISTS reviews_signoff_signed ON reviews_signoff;
CREATE TRIGGER reviews_signoff_signed BEFORE INSERT OR UPDATE OR DELETE ON reviews_signoff
    FOR EACH ROW EXECUTE FUNCTION reviews_signed_child_guard();

DROP TRIGGER IF EXISTS reviews_reserved_links_signed ON reviews_review_reserved_links;
CREATE TRIGGER reviews_reserved_links_signed
    BEFORE INSERT OR UPDATE OR DELETE ON reviews_review_reserved_links
    FOR EACH ROW EXECUTE FUNCTION reviews_signed_child_guard();

DROP TRIGGER IF EXISTS reviews_auditevent_append_only ON reviews_auditevent;
CREATE TRIGGER reviews_auditevent_append_only BEFORE UPDATE OR DELETE ON reviews_auditevent
    FOR EACH ROW EXECUTE FUNCTION reviews_audit_append_only();
"""

BACKWARD = r"""
DROP TRIGGER IF EXISTS reviews_review_signed ON reviews_review;
DROP TRIGGER IF EXISTS reviews_candidate_signed ON reviews_candidate;
DROP TRIGGER IF EXISTS reviews_signoff_signed ON reviews_signoff;
DROP TRIGGER IF EXISTS reviews_reserved_links_signed ON reviews_review_reserved_links;
DROP TRIGGER IF EXISTS reviews_auditevent_append_only ON reviews_auditevent;
DROP FUNCTION IF EXISTS reviews_signed_review_guard();
DROP FUNCTION IF EXISTS reviews_signed_child_guard();
DROP FUNCTION IF EXISTS reviews_audit_append_only();
"""


def _run(schema_editor, sql: str) -> None:
    # A plain cursor without parameters: the SQL holds % signs that are not placeholders.
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(sql)


def forwards(apps, schema_editor):
    _run(schema_editor, FORWARD)


def backwards(apps, schema_editor):
    _run(schema_editor, BACKWARD)


class Migration(migrations.Migration):
    dependencies = [
        ("reviews", "0004_review_round"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
