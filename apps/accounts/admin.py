from django.contrib import admin

from .forms import AdminLoginForm
from .models import ApiToken, Invitation, Membership, OutgoingEmail, Team

# Single sign-on only (Team.sso_only) holds on the admin's sign-in too.
admin.site.login_form = AdminLoginForm


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "currency", "approvals_required"]
    search_fields = ["name", "slug"]
    inlines = [MembershipInline]


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["name", "team", "prefix", "created_at", "revoked_at"]
    readonly_fields = ["prefix", "key_hash", "created_at", "last_used_at"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = [
        "email",
        "team",
        "role",
        "created_at",
        "expires_at",
        "accepted_at",
        "revoked_at",
    ]
    list_filter = ["role"]
    search_fields = ["email", "team__name"]
    readonly_fields = ["token_hash", "created_at", "accepted_at", "accepted_by", "invited_by"]


@admin.register(OutgoingEmail)
class OutgoingEmailAdmin(admin.ModelAdmin):
    """The outbox, to see what was sent and why a message failed (rows are written by code)."""

    list_display = ["to", "subject", "status", "attempts", "created_at", "sent_at"]
    list_filter = ["status"]
    search_fields = ["to", "subject", "key"]
    readonly_fields = [f.name for f in OutgoingEmail._meta.fields]
