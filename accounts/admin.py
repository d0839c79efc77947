from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from rest_framework.authtoken.models import TokenProxy

from accounts.forms import AdminLoginForm
from accounts.models import ApiToken, User
from accounts.views import throttled


@admin.register(User)
class SiteUserAdmin(UserAdmin):
    """Django's user admin, with two of its widgets that have no accessible labels left out: the
    two-box group and permission pickers (plain labelled lists instead) and the split date/time
    inputs of the log-in and join times, which only the site itself sets (shown, not edited)."""

    filter_horizontal = ()
    readonly_fields = ("last_login", "date_joined")


# DRF's plain-key token table is only kept for its migrations (accounts 0003 emptied it into
# ApiToken); its admin page would list and add plain keys.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Which tokens exist and whose they are; never the key, nor its hash. Staff may revoke (delete)
    a token, which closes its live connections (accounts/tokens.py); only its owner makes one."""

    list_display = ["prefix_shown", "name", "user", "created", "last_used", "expires"]
    list_select_related = ["user"]
    list_filter = ["created", "last_used"]
    search_fields = ["user__username", "prefix", "name"]
    fields = ["prefix_shown", "name", "user", "created", "last_used", "expires"]
    readonly_fields = fields
    ordering = ["-created", "-id"]

    @admin.display(description="token", ordering="prefix")
    def prefix_shown(self, token: ApiToken) -> str:
        return f"{token.prefix}…"

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


# The admin's log-in says so when the account is locked out or the address throttled, and answers
# 429 then, as the site's does. Set before the admin's URLs are made (config/urls.py), which take
# the view from this attribute.
admin.site.login_form = AdminLoginForm
admin.site.login = throttled(admin.site.login)
