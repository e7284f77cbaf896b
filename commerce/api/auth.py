"""End-user login and the identity-platform exchanges for the logged-in user."""

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from commerce.api.serializers import CodeIn, LoginOut, OpenpidOut, PhoneOut
from commerce.auth import request_user, user_token_issue
from commerce.inputs import CODE_BODY
from commerce.services.users import user_login, user_phone_set, user_plugin_openpid_set
from core.errors import InvalidInput
from core.schema import error
from core.throttles import failure_count
from core.views import JsonApiView

# A code the platform refuses as invalid or used is the client's: 400 `code refused by the
# identity platform: <errcode> <errmsg>` (the implied 400 of every endpoint).
PLATFORM_FAILED = error("`identity platform ...`: it was unreachable, timed out or failed")


class LoginView(JsonApiView):
    @extend_schema(
        request=CodeIn,
        responses={
            200: LoginOut,
            502: PLATFORM_FAILED,
        },
        tags=["commerce"],
        summary="Log an end user in with a mini-program code",
    )
    def post(self, request):
        code = CODE_BODY.parse(request.data)["code"]
        try:
            user = user_login(code=code)
        except InvalidInput:  # the platform refused the code: a failed login
            failure_count(request)
            raise
        return Response(LoginOut({"token": user_token_issue(user), "user": user}).data)


class PluginOpenpidView(JsonApiView):
    @extend_schema(
        request=CodeIn,
        responses={
            200: OpenpidOut,
            502: PLATFORM_FAILED,
        },
        tags=["commerce"],
    )
    def post(self, request):
        user = request_user(request)
        code = CODE_BODY.parse(request.data)["code"]
        return Response(OpenpidOut(user_plugin_openpid_set(user=user, code=code)).data)


class PhoneView(JsonApiView):
    @extend_schema(
        request=CodeIn,
        responses={
            200: PhoneOut,
            502: PLATFORM_FAILED,
        },
        tags=["commerce"],
    )
    def post(self, request):
        user = request_user(request)
        code = CODE_BODY.parse(request.data)["code"]
        return Response(PhoneOut(user_phone_set(user=user, code=code)).data)


urlpatterns = [
    path("auth/login", LoginView.as_view(), name="auth-login"),
    path("platform/plugin-openpid", PluginOpenpidView.as_view(), name="platform-openpid"),
    path("platform/phone", PhoneView.as_view(), name="platform-phone"),
]
