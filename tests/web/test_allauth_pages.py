"""Every django-allauth page a person can reach is drawn in the site's layout, in the site's
words and in sentence case, in English and in Chinese (issue 39): sign-out, password change and
set, re-authentication, email confirmation and verification, inactive account, sessions, and the
single sign-on pages (connections, cancelled, failed). allauth's own templates say "Sign Out",
"Change Password", "Confirm Email Address" and so on: each is replaced in templates/account/,
templates/usersessions/ and templates/socialaccount/."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.factories import make_user

pytestmark = pytest.mark.django_db

# Words that keep their capitals inside a sentence-case heading.
PROPER = {"IP", "OIDC", "SSO"}
LAYOUT = re.compile(r'<body[^>]* class="[^"]*\bis-allauth\b')  # templates/allauth/layouts/
HEADING = re.compile(r"<(h1|h2|title|button)\b[^>]*>(.*?)</\1>", re.S)


def headings(html: str) -> list[str]:
    texts = (re.sub(r"<[^>]+>", " ", inner) for _tag, inner in HEADING.findall(html))
    return [" ".join(t.split()) for t in texts if t.strip()]


def title_cased(text: str) -> bool:
    """More than the first word of a part capitalized ("Sign Out", "Change Password"); a page
    title's parts are apart ("Sessions · Compute reviews")."""
    for part in text.split("·"):
        words = [w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", part) if w not in PROPER]
        if any(w[0].isupper() for w in words[1:]):
            return True
    return False


def page(client, url: str) -> str:
    response = client.get(url)
    # allauth answers the failed single sign-on page with 401.
    expected = 401 if url == reverse("socialaccount_login_error") else 200
    assert response.status_code == expected, (url, response.status_code)
    return response.content.decode()


def pages(owner) -> dict[str, tuple[str, str]]:
    """name → (URL, the English heading): each page as `owner` (signed in) sees it."""
    from allauth.account.models import EmailAddress, EmailConfirmationHMAC

    address = EmailAddress.objects.create(user=owner, email="second@example.com")
    key = EmailConfirmationHMAC(address).key
    return {
        "sign out": (reverse("account_logout"), "Sign out"),
        "password change": (reverse("account_change_password"), "Change your password"),
        "re-authentication": (reverse("account_reauthenticate"), "Confirm it is you"),
        "email confirmation": (
            reverse("account_confirm_email", args=[key]), "Confirm your email address"
        ),
        "bad confirmation link": (
            reverse("account_confirm_email", args=["not-a-key"]), "Confirm your email address"
        ),
        "verification sent": (
            reverse("account_email_verification_sent"), "Verify your email address"
        ),
        "inactive": (reverse("account_inactive"), "Account inactive"),
        "sessions": (reverse("usersessions_list"), "Sessions"),
        "connections": (reverse("socialaccount_connections"), "Connected accounts"),
        "sign-in cancelled": (reverse("socialaccount_login_cancelled"), "Sign-in cancelled"),
        "sign-on failed": (reverse("socialaccount_login_error"), "Single sign-on failed"),
    }


CHINESE = {
    "Sign out": "退出登录",
    "Change your password": "修改密码",
    "Confirm it is you": "确认是你本人",
    "Confirm your email address": "确认你的邮箱地址",
    "Verify your email address": "验证你的邮箱地址",
    "Account inactive": "账号已停用",
    "Sessions": "会话",
    "Connected accounts": "已关联的账号",
    "Sign-in cancelled": "已取消登录",
    "Single sign-on failed": "单点登录失败",
    "Set a password": "设置密码",
}


class AllauthPagesInTheSitesWordsTests:
    def test_each_page_has_the_sites_layout_and_no_title_case(self, client, owner):
        client.force_login(owner)
        for name, (url, heading) in pages(owner).items():
            html = page(client, url)
            # The site's layout (templates/allauth/layouts/): its header and styles.
            assert LAYOUT.search(html), name
            assert 'class="topbar' in html and "css/signin" in html, name
            found = headings(html)
            assert heading in found, (name, found)
            assert not [h for h in found if title_cased(h)], (name, found)

    def test_each_page_in_chinese(self, client, owner):
        client.force_login(owner)
        client.cookies["django_language"] = "zh-hans"
        for name, (url, heading) in pages(owner).items():
            found = headings(page(client, url))
            assert CHINESE[heading] in found, (name, found)
            assert heading not in found, (name, found)

    def test_setting_a_first_password(self, client):
        person = make_user("sso-only")
        person.set_unusable_password()
        person.save()
        client.force_login(person)
        html = page(client, reverse("account_set_password"))
        found = headings(html)
        assert "Set a password" in found and not [h for h in found if title_cased(h)]
        assert LAYOUT.search(html)
        client.cookies["django_language"] = "zh-hans"
        assert "设置密码" in headings(page(client, reverse("account_set_password")))

    def test_the_title_case_check_catches_allauths_own_words(self):
        assert title_cased("Change Password") and title_cased("Sign Out Other Sessions")
        assert not title_cased("Change your password") and not title_cased("IP address")

    def test_the_sign_out_page_signs_out(self, client, owner):
        client.force_login(owner)
        html = page(client, reverse("account_logout"))
        assert "Sign out of this browser?" in html and "Are you sure" not in html
        client.post(reverse("account_logout"))
        assert "_auth_user_id" not in client.session
