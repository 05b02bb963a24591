from __future__ import annotations

from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import SignupForm
from allauth.core import context as allauth_context
from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.db import transaction
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from .invitations import (
    SESSION_INVITATION_KEY,
    InvitationError,
    drop_unverified_claims,
    invitation_accept,
)
from .models import Membership, Role


class LoginForm(AllauthLoginForm):
    """Username or email and password. The first field keeps its historical name `username`
    (allauth calls it `login`), so password managers and scripts keep working. A member of a team
    that signs in with single sign-on only may still sign in with a password: that team's pages
    then ask for single sign-on (apps.accounts.middleware); their other teams do not."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields.pop("login")
        field.label = _("Username or email")
        field.widget.attrs.pop("placeholder", None)
        field.widget.attrs.update({"autocomplete": "username", "autofocus": True})
        self.fields = {"username": field, **self.fields}

    def clean_username(self) -> str:
        return self.cleaned_data["username"].strip()

    def user_credentials(self) -> dict:
        self.cleaned_data["login"] = self.cleaned_data.get("username", "")
        return super().user_credentials()


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's sign-in: staff members of a team that signs in with single sign-on only are
    refused a password here (the admin reaches every team's data, so it asks for the strictest
    rule of the person's teams)."""

    def confirm_login_allowed(self, user) -> None:
        super().confirm_login_allowed(user)
        if sso_only(user):
            raise forms.ValidationError(
                _("Your team signs in with single sign-on only: sign in on the site with %(name)s.")
                % {"name": sso_name()},
                code="sso_only",
            )


def sso_only(user) -> bool:
    return Membership.objects.filter(user=user, team__sso_only=True).exists()


def sso_name() -> str:
    from django.conf import settings

    apps = settings.SOCIALACCOUNT_PROVIDERS.get("openid_connect", {}).get("APPS", [])
    return apps[0]["name"] if apps else _("single sign-on")


class InvitationSignupForm(SignupForm):
    """Sign-up from an invitation link: the invited address, which cannot be changed, a username
    and a password. The account and the membership are made in one transaction."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from .adapters import session_invitation

        self.invitation = session_invitation(allauth_context.request)
        if self.invitation is not None and "email" in self.fields:
            self.fields["email"].initial = self.invitation.email
            self.fields["email"].disabled = True
            self.fields["email"].help_text = _("The address you were invited at.")

    def validate_unique_email(self, value):
        """The invited address wins over another account's unverified claim on it (dropped
        here, before allauth's uniqueness check); an account that verified it still counts."""
        if self.invitation is not None and (value or "").lower() == self.invitation.email.lower():
            drop_unverified_claims(self.invitation.email)
        return super().validate_unique_email(value)

    def clean(self):
        if self.invitation is None:
            raise forms.ValidationError(
                _("This invitation can no longer be used."), code="invitation"
            )
        return super().clean()

    def save(self, request):
        with transaction.atomic():
            user = super().save(request)
            invitation_accept(invitation_id=self.invitation.pk, user=user)
        request.session.pop(SESSION_INVITATION_KEY, None)
        return user

    def try_save(self, request):
        """The invitation was used or revoked between the form check and the save (another tab,
        an owner): nothing is written and the page says why."""
        try:
            return super().try_save(request)
        except InvitationError as exc:
            context = {"problem": exc.code, "invitation": self.invitation}
            page = render(request, "accounts/invitations/problem.html", context, status=410)
            return None, page


class InvitationForm(forms.Form):
    email = forms.EmailField(label=_("Email address"), max_length=254)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.MEMBER)
