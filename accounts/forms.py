from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from accounts import login_limits
from accounts.models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username",)

    def validate_password_for_user(self, user: User, password_field_name: str = "password1") -> None:
        """The password rules (too short, too common, all digits, too like the username) judge the
        password typed, so their errors go under the password field; Django puts them under the
        confirmation, where a person looks for "the two did not match". That one stays there."""
        super().validate_password_for_user(user, password_field_name=password_field_name)


class LockoutMessage:
    """Say plainly why a log-in is refused before any password is checked (the backend refuses it
    either way), rather than the usual "wrong username or password", which would send a person
    guessing again. ``retry_after`` is then set: the view answers 429 (``accounts.views.throttled``)."""

    retry_after: int | None = None

    def clean(self) -> dict:
        username = self.cleaned_data.get("username")
        refused = login_limits.refusal(login_limits.request_address(self.request), username or None)
        if isinstance(refused, login_limits.LoginLocked):
            self.retry_after = refused.retry_after
            raise forms.ValidationError(
                "Too many failed log-ins for this account: try again in %(seconds)s s.",
                code="locked", params={"seconds": refused.retry_after})
        if refused is not None:
            self.retry_after = refused.retry_after
            raise forms.ValidationError(
                "Too many failed log-ins from your address: try again in %(seconds)s s.",
                code="rate_limited", params={"seconds": refused.retry_after})
        return super().clean()


class LoginForm(LockoutMessage, AuthenticationForm):
    pass


class AdminLoginForm(LockoutMessage, AdminAuthenticationForm):
    pass


class NewTokenForm(forms.Form):
    name = forms.CharField(max_length=64, required=False, strip=True, label="Name (optional)",
                           help_text="To tell your tokens apart, e.g. the bot that will use it.")
