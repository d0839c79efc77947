from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from accounts import tokens
from accounts.forms import NewTokenForm, SignUpForm


def throttled(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A log-in view (the site's, the admin's) whose form refused a log-in before checking the
    password (``forms.LockoutMessage``) answers 429 with ``Retry-After``, as the API does."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        form = (getattr(response, "context_data", None) or {}).get("form")
        retry_after = getattr(form, "retry_after", None)
        if retry_after is not None:
            response.status_code = 429
            response["Retry-After"] = str(retry_after)
        return response

    return answer


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            login(request, user, backend="accounts.backends.LockoutBackend")
            return redirect("lobby")
    else:
        form = SignUpForm()
    return render(request, "accounts/signup.html", {"form": form})


@never_cache  # the one response that carries a new key must not be kept by any cache or history
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request: HttpRequest) -> HttpResponse:
    """The user's API tokens: make one (its key is shown in this response only), list them, revoke one."""
    form = NewTokenForm()
    new_key = None
    status = 200
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "revoke":
            return _revoke(request)
        if action != "create":
            return HttpResponse("Unknown action.", status=400, content_type="text/plain")
        form = NewTokenForm(request.POST)
        if form.is_valid():
            if request.user.api_tokens.count() >= tokens.MAX_TOKENS_PER_USER:
                form.add_error(None, f"You hold {tokens.MAX_TOKENS_PER_USER} tokens, the most one may: "
                                     "revoke one you no longer use first.")
            else:
                _, new_key = tokens.create_token(request.user, form.cleaned_data["name"])
                form = NewTokenForm()
        if form.errors:
            status = 400
    return render(request, "accounts/token.html", {
        "form": form,
        "new_key": new_key,
        "tokens": request.user.api_tokens.all(),
        "connect": connection_help(request),
    }, status=status)


def connection_help(request: HttpRequest) -> dict[str, object]:
    """What the token page's "Using your token" needs: this server's addresses and TCP ports (0:
    that port is off), and mmj's name length, which its log-in line counts in octets."""
    name = f"{request.user.username}/".encode() + b"0" * tokens.KEY_BYTES * 2  # the key in hex
    return {
        "host": urlsplit(f"//{request.get_host()}").hostname,
        "ws": f"{'wss' if request.is_secure() else 'ws'}://{request.get_host()}",
        "http": f"{request.scheme}://{request.get_host()}",
        "cribbage_port": settings.CRIBBAGE_PORT,
        "ump_port": settings.UMP_PORT,
        "mmj_port": settings.MMJ_PORT,
        "mjai_port": settings.MJAI_PORT,
        "mmj_name_octets": len(name),
    }


def _revoke(request: HttpRequest) -> HttpResponse:
    token_id = request.POST.get("token", "")
    valid = token_id.isascii() and token_id.isdigit() and len(token_id) < 19  # a BigAutoField id
    token = tokens.revoke(request.user, int(token_id)) if valid else None
    if token is None:
        messages.error(request, "No such token: it may have been revoked already.")
    else:
        messages.success(request, f"Token {token.prefix}… revoked: it is refused from now on, and every "
                                  "connection that logged in with it is closed.")
    return redirect("api-token")
