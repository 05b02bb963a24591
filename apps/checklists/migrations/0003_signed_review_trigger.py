"""On PostgreSQL, no checklist answer of an approved (signed) review can be added, changed or
deleted, whatever path the write takes (see reviews 0005 for the review and its other parts)."""

from django.db import migrations

FORWARD = r"""
CREATE OR REPLACE FUNCTION checklists_signed_answer_guard() RETURNS trigger AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND EXISTS (
        SELECT 1 FROM reviews_candidate c JOIN reviews_review r ON r.id = c.review_id
        WHERE c.id = OLD.candidate_id AND r.state = 'approved'
    ) THEN
        RAISE EXCEPTION '% of an answer of an approved review refused', TG_OP;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND EXISTS (
        SELECT 1 FROM reviews_candidate c JOIN reviews_review r ON r.id = c.review_id
        WHERE c.id = NEW.candidate_id AND r.state = 'approved'
    ) THEN
        RAISE EXCEPTION '% of an answer into an approved review refused', TG_OP;
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS checklists_answer_signed ON checklists_checklistanswer;
CREATE TRIGGER checklists_answer_signed
    BEFORE INSERT OR UPDATE OR DELETE ON checklists_checklistanswer
    FOR EACH ROW EXECUTE FUNCTION checklists_signed_answer_guard();
"""

BACKWARD = r"""
DROP TRIGGER IF EXISTS checklists_answer_signed ON checklists_checklistanswer;
DROP FUNCTION IF EXISTS checklists_signed_answer_guard();
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
        ("checklists", "0002_initial"),
        ("reviews", "0005_signed_review_triggers"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
