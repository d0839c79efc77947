from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .forms import AdminLoginForm
from .models import User

admin.site.register(User, UserAdmin)

# The admin's log-in says so when the account is locked out, as the site's does.
admin.site.login_form = AdminLoginForm
