"""A small OpenID Connect issuer for tests: a real HTTP server in a thread that serves discovery,
authorize, token, userinfo and JWKS, and signs ID tokens RS256 with a key made for the test.

It checks what a real issuer checks: the client id and secret, the redirect URI, that a code is
used once, and the PKCE verifier against the challenge. `identity` is the person who "signs in"
at the issuer (the consent screen is skipped: authorize answers with a code at once).
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm


class Issuer:
    def __init__(self, *, client_id: str = "reviews-app", client_secret: str = "s3cret"):
        self.client_id, self.client_secret = client_id, client_secret
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = secrets.token_hex(4)
        self.identity: dict = {}
        self.codes: dict[str, dict] = {}
        self.tokens: dict[str, dict] = {}
        self.requests: list[str] = []  # paths served, in order
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Issuer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    # The endpoints ------------------------------------------------------------------------------

    def discovery(self) -> dict:
        return {
            "issuer": self.url,
            "authorization_endpoint": f"{self.url}/authorize",
            "token_endpoint": f"{self.url}/token",
            "userinfo_endpoint": f"{self.url}/userinfo",
            "jwks_uri": f"{self.url}/jwks",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
            "code_challenge_methods_supported": ["S256"],
        }

    def jwks(self) -> dict:
        jwk = json.loads(RSAAlgorithm.to_jwk(self.key.public_key()))
        return {"keys": [{**jwk, "kid": self.kid, "use": "sig", "alg": "RS256"}]}

    def authorize(self, query: dict) -> tuple[int, dict]:
        if query.get("client_id") != self.client_id or query.get("response_type") != "code":
            return 400, {"error": "invalid_request"}
        code = secrets.token_urlsafe(16)
        self.codes[code] = {
            "redirect_uri": query["redirect_uri"],
            "nonce": query.get("nonce"),
            "challenge": query.get("code_challenge"),
            "identity": dict(self.identity),
        }
        location = query["redirect_uri"] + "?" + urlencode({"code": code, "state": query["state"]})
        return 302, {"Location": location}

    def token(self, form: dict, auth_header: str) -> tuple[int, dict]:
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if auth_header.startswith("Basic "):
            client_id, _, secret = base64.b64decode(auth_header[6:]).decode().partition(":")
        if (client_id, secret) != (self.client_id, self.client_secret):
            return 401, {"error": "invalid_client"}
        grant = self.codes.pop(form.get("code", ""), None)  # a code works once
        if grant is None or grant["redirect_uri"] != form.get("redirect_uri"):
            return 400, {"error": "invalid_grant"}
        if grant["challenge"]:
            digest = hashlib.sha256(form.get("code_verifier", "").encode()).digest()
            if base64.urlsafe_b64encode(digest).rstrip(b"=").decode() != grant["challenge"]:
                return 400, {"error": "invalid_grant", "error_description": "PKCE"}
        identity = grant["identity"]
        access = secrets.token_urlsafe(16)
        self.tokens[access] = identity
        now = int(time.time())
        claims = {
            "iss": self.url,
            "aud": self.client_id,
            "iat": now,
            "exp": now + 300,
            **identity,
        }
        if grant["nonce"]:
            claims["nonce"] = grant["nonce"]
        id_token = jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": self.kid})
        return 200, {
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": 300,
            "id_token": id_token,
        }

    def userinfo(self, auth_header: str) -> tuple[int, dict]:
        identity = self.tokens.get(auth_header.removeprefix("Bearer "))
        if identity is None:
            return 401, {"error": "invalid_token"}
        return 200, identity

    def _handler(self):
        issuer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # quiet
                pass

            def _answer(self, status: int, body: dict) -> None:
                if status == 302:
                    self.send_response(302)
                    self.send_header("Location", body["Location"])
                    self.end_headers()
                    return
                payload = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                issuer.requests.append(parts.path)
                query = {k: v[0] for k, v in parse_qs(parts.query).items()}
                auth = self.headers.get("Authorization", "")
                answers = {
                    "/.well-known/openid-configuration": lambda: (200, issuer.discovery()),
                    "/jwks": lambda: (200, issuer.jwks()),
                    "/authorize": lambda: issuer.authorize(query),
                    "/userinfo": lambda: issuer.userinfo(auth),
                }
                answer = answers.get(parts.path)
                self._answer(*(answer() if answer else (404, {"error": "not_found"})))

            def do_POST(self) -> None:
                issuer.requests.append(self.path)
                length = int(self.headers.get("Content-Length", 0))
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                if self.path != "/token":
                    self._answer(404, {"error": "not_found"})
                    return
                self._answer(*issuer.token(form, self.headers.get("Authorization", "")))

        return Handler
