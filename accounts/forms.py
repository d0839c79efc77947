from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm

from games import limits

from .models import User


class SignUpForm(UserCreationForm):
    class Meta:
        model = User
        fields = ("username",)


class LockoutMessage:
    """Say plainly that the account is locked (the backend refuses it either way), rather than
    the usual "wrong username or password", which would send a person guessing again."""

    def clean(self) -> dict:
        username = self.cleaned_data.get("username")
        locked = limits.login_locked(username) if username else None
        if locked:
            raise forms.ValidationError(
                "Too many failed log-ins for this account: try again in %(seconds)s s.",
                code="locked", params={"seconds": locked.retry_after})
        return super().clean()


class LoginForm(LockoutMessage, AuthenticationForm):
    pass


class AdminLoginForm(LockoutMessage, AdminAuthenticationForm):
    pass


class NewTokenForm(forms.Form):
    name = forms.CharField(max_length=64, required=False, strip=True, label="Name (optional)",
                           help_text="To tell your tokens apart, e.g. the bot that will use it.")
