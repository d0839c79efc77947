from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import views
from accounts.forms import LoginForm

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.throttled(auth_views.LoginView.as_view(template_name="accounts/login.html",
                                                                authentication_form=LoginForm)), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("token/", views.api_token, name="api-token"),
]
