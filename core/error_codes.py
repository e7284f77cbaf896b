"""Every error `code` the API answers, declared once: its HTTP status, the endpoints (path
prefixes) that can answer it, an English `detail` it comes with and a Chinese sentence a
client can show instead. The OpenAPI schema (core/schema.py) lists each operation's codes
from here and docs/api.md's table is written from here (`manage.py docs_tables`); a raise
site naming a code missing here fails tests/test_error_codes.py.

The example of a code a declared input refuses with is that input's own sentence: `Declared`
names the declaration (core/inputs.py) by its dotted path, read when the table is written, so
the example cannot say other than the check does (core imports no app)."""

from dataclasses import dataclass

from core.inputs import declared


@dataclass(frozen=True)
class Declared:
    """The refusal, with this code, of the field `field` of the declaration at `path`."""

    path: str
    field: str

    def sentence(self, code: str) -> str:
        return declared(self.path).refused_with(self.field, code)


@dataclass(frozen=True)
class ErrorCode:
    code: str
    status: int
    example: str | Declared  # an English `detail` this code comes with
    chinese: str  # what a client may show instead
    paths: tuple[str, ...] = ()  # path prefixes of the endpoints answering it; () = any

    @property
    def detail(self) -> str:
        """The example's sentence."""
        if isinstance(self.example, Declared):
            return self.example.sentence(self.code)
        return self.example


JOBS = ("/api/jobs", "/api/name-lists", "/api/assets/from-job", "/api/design-lists")
PROJECTS = ("/api/projects",)
ASSETS = ("/api/assets",)
FONTS = ("/api/fonts", "/api/jobs")
# A project is drawn when a design list naming it is submitted or ordered (its frozen copy).
DRAWN = ("/api/jobs", "/api/projects", "/api/design-lists", "/api/orders")
EXPORTS = ("/api/exports", "/api/jobs", "/api/projects")
PROOFS = ("/api/jobs", "/api/proofs")
COMMERCE = (
    "/api/addresses",
    "/api/auth",
    "/api/design-lists",
    "/api/orders",
    "/api/payments",
    "/api/platform",
    "/api/products",
)
ORDERS = ("/api/orders", "/api/payments")
IDENTITY = ("/api/auth", "/api/platform")
PAYING = ("/api/orders", "/api/payments")

# The code an error gets when its raiser named none, by HTTP status.
GENERIC = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    413: "request_too_large",
    415: "unsupported_media_type",
    422: "unprocessable",
    429: "throttled",
    431: "headers_too_large",
    500: "internal_error",
    502: "bad_gateway",
    503: "service_unavailable",
}

E = ErrorCode
FORM = "wordclouds.services.job_inputs.JOB_FORM"
PARAMS = "wordclouds.engine.params.PARAMS"
CUSTOM_SVG = "wordclouds.services.custom_svg.CUSTOM_SVG"
PROJECT = "wordclouds.services.projects.PROJECT_FORM"
FONT = "wordclouds.services.fonts.FONT_FORM"
# fmt: off
CODES: tuple[ErrorCode, ...] = (
    # Any endpoint: the handlers' own answers (core/errors.py, core/endpoints.py).
    E("bad_request", 400, "bad request", "请求无效。"),
    E("unauthorized", 401, "unauthorized", "需要登录。"),
    E("forbidden", 403, "forbidden", "没有权限执行此操作。"),
    E("not_found", 404, "not found", "找不到所请求的资源。"),
    E("method_not_allowed", 405, "method DELETE not allowed", "此地址不支持该请求方法。"),
    E("not_acceptable", 406, "could not satisfy the request Accept header.", "无法以所要求的格式回答。"),
    E("conflict", 409, "conflict", "请求与资源的当前状态冲突。"),
    E("request_too_large", 413, "request body exceeds the size limit", "请求内容超过大小上限。"),
    E("unsupported_media_type", 415, 'unsupported media type "text/plain" in request.', "不支持此请求内容类型。"),
    E("unprocessable", 422, "unprocessable", "无法处理此请求。"),
    E("headers_too_large", 431, "request headers exceed 16 KB", "请求头过大。"),
    E("throttled", 429, "more than 60 jobs requests in 3600 s from this client; try again in 42 s", "请求过于频繁，请稍后再试。"),
    E("heavy_work_busy", 503, "every heavy-work slot stayed busy for 10 s; try again shortly", "服务器正忙，请稍后再试。"),
    E("internal_error", 500, "internal server error", "服务器内部错误，请稍后再试。"),
    E("bad_gateway", 502, "bad gateway", "上游服务出错，请稍后再试。"),
    E("service_unavailable", 503, "file storage is unavailable", "服务暂时不可用，请稍后再试。"),
    E("storage_unavailable", 503, "file storage is unavailable", "文件存储暂时不可用，请稍后再试。"),
    E("invalid_field", 400, "pageSize must be an integer from 1 to 100", "某个字段的值无效（字段名见 detail）。"),
    E("parameter_repeated", 400, "status must be given once", "同一参数只能给出一次。"),
    E("request_data_refused", 400, "The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.", "请求数据的字段或文件过多，或格式有误。"),
    E("data_nested_too_deeply", 400, "request data is nested too deeply", "请求数据嵌套层数过多。"),
    E("number_out_of_range", 400, "a number in the request is out of range", "请求中的某个数字超出范围。"),
    E("text_contains_nul", 400, "name must not contain NUL characters", "文本不能包含 NUL 字符。"),
    E("text_too_long", 400, "name must be at most 200 characters", "文本过长。"),
    E("upload_too_large", 413, Declared(FORM, "name_list"), "上传的文件超过大小上限。"),
    E("option_invalid", 400, Declared(CUSTOM_SVG, "spacing"), "某个选项的值无效（选项名见 detail）。"),
    E("too_slow", 422, "the layout takes longer than 60 s; ask for less work", "计算耗时超过上限，请减少工作量。"),
    E("too_big", 422, "the layout needs more than 2048 MB of memory or nests too deeply", "计算所需内存超过上限。"),
    # Who may call what (core/access.py, docs/security.md).
    E("authentication_required", 401, "authentication required", "需要登录。"),
    E("token_invalid", 401, "invalid or expired token", "登录凭证无效或已过期，请重新登录。"),
    E("staff_only", 403, "this endpoint is for staff", "此操作仅限工作人员。"),
    E("user_token_required", 403, "this endpoint needs an end-user token", "此操作需要用户本人登录。"),
    E("not_owner", 403, "only the job's owner or staff may change it", "该任务属于其他用户。", ("/api/jobs", "/api/proofs")),
    E("csrf_failed", 403, "the staff session needs the page's CSRF token", "页面已过期，请刷新后重试。"),
    E("access_undeclared", 403, "this route declares no access", "此地址尚未声明访问权限。"),
    E("job_in_order", 409, "job 0123… is needed by order 12", "该任务仍被订单使用，不能删除。", ("/api/jobs",)),
    E("job_proof_approved", 409, "job 0123… is needed by the approved version 1 of proof 7; revoke the proof to delete it", "该任务的校样已被批准，撤销校样后才能删除。", ("/api/jobs",)),
    E("job_not_finished", 409, "job 0123… is running; a job is deleted once it has finished", "任务尚未完成，完成后才能删除。", ("/api/jobs",)),
    E("wrong_status", 409, "order cannot be cancelled in status paid", "当前状态下不能执行此操作。", COMMERCE),
    # Admin login.
    E("password_required", 400, "password is required", "请输入密码。", ("/api/login",)),
    E("password_invalid", 401, "invalid password", "密码错误。", ("/api/login",)),
    # Jobs.
    E("job_not_found", 404, "job not found", "找不到该任务。"),
    E("job_unknown", 400, "unknown jobId: 0123…", "设计清单中的任务不存在。", COMMERCE),
    E("job_stale", 409, "job 0123… lost its worker: …", "该任务的处理进程已中断，请重新生成。", JOBS),
    E("too_many_queued_jobs", 429, "this client has 10 jobs queued or running; wait for one to finish", "排队中的任务过多，请等其中一个完成后再提交。", (*JOBS, "/api/proofs")),
    E("job_font_missing", 409, "the job's font no longer exists", "该任务使用的字体已被删除。", JOBS),
    # Revisions (docs/engine.md, "Revisions").
    E("edits_invalid", 400, "remove[0]: no word with id 99999", "修改内容有误（问题见 detail）。", (*JOBS, "/api/proofs")),
    E("edits_not_json", 400, "edits must be valid JSON", "修改内容必须是有效的 JSON。", JOBS),
    E("parent_not_success", 409, "only a finished poster can be revised; this job is failed", "只有已完成的海报才能修订。", (*JOBS, "/api/proofs")),
    E("revision_not_rerun", 409, "a revision is not run again; make a new revision of its parent", "修订版不能重新运行，请对原海报再做一次修订。", JOBS),
    # Printed size (docs/engine.md, "Printed size"; docs/exports.md, "Preflight").
    E("names_too_small", 422, "412 of 3000 names would print under 6 pt at 297 × 297 mm (…)", "有名字在此尺寸下印出来会小于最小字号，请印大一些。", ("/api/jobs",)),
    E("size_advice_refused", 400, "params.MIN_NAME_PT must be a number from 1 to 72", "无法据此给出尺寸建议（原因见 detail）。", ("/api/jobs",)),
    # The studio's regions preview (docs/engine.md, Groups).
    E("regions_preview_refused", 400, "the regions preview needs params.MASK_TEXT and params.GROUP_COL_INDEX", "预览分区需要文字形状（MASK_TEXT）和分组列（GROUP_COL_INDEX）。", ("/api/jobs",)),
    # Production files (docs/commerce.md, "Production files").
    # Proofs (commerce/services/proofs.py, docs/proofs.md).
    E("proof_invalid", 400, "text must not be empty", "校样请求的某个字段无效（字段名见 detail）。", PROOFS),
    E("proof_job_not_finished", 409, "only a finished poster can be sent as a proof; this job is RUNNING", "只有已完成的海报才能发送校样。", ("/api/jobs",)),
    E("proof_job_sent", 409, "job 0123… is already version 1 of proof 3", "该海报已是校样的一个版本。", ("/api/jobs",)),
    E("proof_not_found", 404, "proof not found", "找不到该校样。", ("/api/proofs",)),
    E("proof_job_deleted", 410, "this proof's poster was deleted", "该校样的海报已被删除。", ("/api/proofs",)),
    E("proof_revoked", 410, "this proof's link was revoked", "该校样链接已被撤销。", ("/api/proofs",)),
    E("proof_version_unknown", 400, "version 4 is not a version of this proof", "该校样没有这个版本。", ("/api/proofs",)),
    E("proof_comment_pin", 400, "a comment is pinned to a name (word_id) or to a point (x and y), one of them", "批注须标在一个名字或一个位置上（二选一）。", ("/api/proofs",)),
    E("proof_word_unknown", 400, "version 1 has no name with id 99", "该版本中没有这个名字。", ("/api/proofs",)),
    E("proof_spelling_missing", 400, "a misspelt comment needs spelling: the right spelling", "请填写正确的写法（或缺少的名字）。", ("/api/proofs",)),
    E("proof_version_not_newest", 409, "version 1 is not the newest (version 2); only the newest version can be decided", "只能对最新版本作出决定。", ("/api/proofs",)),
    E("proof_changes_without_comment", 400, "asking for changes needs at least one comment on this version", "要求修改前请至少添加一条批注。", ("/api/proofs",)),
    E("proof_name_missing", 400, "approving needs the approver's name", "批准时请填写您的姓名。", ("/api/proofs",)),
    E("proof_terms_not_accepted", 400, "approving needs the terms accepted (terms_accepted: true)", "批准前请勾选确认条款。", ("/api/proofs",)),
    E("proof_role_unknown", 400, "role must be one of the proof's roles: class teacher, committee", "请选择校样所列的审批身份之一。", ("/api/proofs",)),
    E("proof_approved", 409, "version 2 is approved already", "该版本已获批准。", ("/api/proofs",)),
    E("proof_no_edits", 409, "the comments on version 1 ask for no rename, addition or removal", "这些批注没有要求改名、添加或删除。", ("/api/proofs",)),
    E("proof_not_approved", 409, "version 1 of proof 3 (job 0123…) has 0 of the 1 approval(s) it needs", "该设计尚未获得校样批准，不能提交或下单。", ("/api/design-lists", "/api/orders")),
    E("proof_files_changed", 409, "the files of job 0123… differ from those approved in version 2 of proof 3: nothing was made", "海报文件与批准时不一致，未生成生产文件。", ORDERS),
    E("preparation_not_found", 404, "preparation not found", "找不到该生产文件记录。", ORDERS),
    E("production_file_not_found", 404, "file not found", "找不到该生产文件。", ("/api/production-files",)),
    E("artifact_not_ready", 404, "artifact not ready", "文件尚未生成，请稍候。", (*JOBS, *ASSETS, *PROJECTS)),
    E("artifact_kind_unknown", 404, "unknown artifact kind", "没有这种文件类型。", JOBS),
    E("tile_not_found", 404, "tile not found", "找不到该图块。", JOBS),
    E("params_not_json", 400, Declared(FORM, "params"), "params 不是有效的 JSON。", JOBS),
    E("params_not_object", 400, Declared(FORM, "params"), "params 必须是 JSON 对象。", JOBS),
    E("name_list_required", 400, Declared(FORM, "name_list"), "请上传名单文件。", JOBS),
    E("name_list_not_xlsx", 400, Declared(FORM, "name_list"), "名单文件必须是 xlsx 格式。", JOBS),
    E("mask_image_required", 400, "mask_image is required when MODE=IMAGE", "图片蒙版模式需要上传蒙版图片。", JOBS),
    E("mask_image_wrong_type", 400, Declared(FORM, "mask_image"), "蒙版图片必须是 png、jpg 或 jpeg 格式。", JOBS),
    E("mask_image_unreadable", 400, "mask_image is not a readable image", "无法读取蒙版图片。", JOBS),
    E("mask_image_too_many_pixels", 413, "mask_image exceeds 50 megapixels", "蒙版图片像素过多。", JOBS),
    E("mask_image_too_small", 400, "mask_image must be at least 16×16 pixels", "蒙版图片尺寸过小。", JOBS),
    E("font_file_wrong_type", 400, Declared(FORM, "font_file"), "字体文件必须是 .ttf、.ttc 或 .otf。", FONTS),
    E("params_invalid", 400, Declared(PARAMS, "WIDTH"), "参数无效（参数名见 detail）。", JOBS),
    E("name_list_invalid", 400, "name_list has no names in column 0", "名单文件无法读取或没有名字。", JOBS),
    E("name_list_too_large", 413, "name_list's part xl/sharedStrings.xml unpacks to more than 64 MB", "名单文件解压后过大或共享字符串过多。", JOBS),
    E("names_not_drawable", 400, "no font can draw 𠀀 in 𠀀先生", "名单中有字体无法显示的字符。", JOBS),
    E("mask_image_invalid", 400, "mask_image leaves no room for words", "蒙版图片无法使用。", JOBS),
    E("font_file_invalid", 400, "font_file is not a valid font", "字体文件无效。", JOBS),
    E("font_id_unknown", 400, Declared(FORM, "font_id"), "没有这个字体。", JOBS),
    E("font_invalid", 400, "file is not a valid font", "文件不是有效的字体。", FONTS),
    E("file_required", 400, Declared(FONT, "file"), "请上传文件。", (*FONTS, *ASSETS)),
    E("font_wrong_type", 400, Declared(FONT, "file"), "字体文件必须是 .ttf、.ttc 或 .otf。", FONTS),
    E("default_font_undeletable", 400, "the default font cannot be deleted", "默认字体不能删除。", FONTS),
    E("font_not_found", 404, "font not found", "找不到该字体。", FONTS),
    E("font_in_use", 409, "font is used by job 0123… (queued)", "该字体正被作业、设计清单或订单使用，不能删除。", FONTS),
    E("inline_invalid", 400, "inline must be 0 or 1", "inline 只能是 0 或 1。", (*JOBS, *ASSETS)),
    E("last_event_id_invalid", 400, "Last-Event-ID must be a non-negative integer", "Last-Event-ID 必须是非负整数。", JOBS),
    E("lookup_mode_invalid", 400, "mode must be exact or contains", "查找方式只能是 exact 或 contains。", JOBS),
    E("group_unknown", 404, 'group "7班" is not a group of this poster', "该海报没有这个分组。", JOBS),
    E("body_not_object", 400, "body must be a JSON object", "请求内容必须是 JSON 对象。", JOBS),
    E("sample_step_too_small", 400, "sampleStep 0.01 gives more than 1,000,000 samples on this job; use a larger step", "采样步长过小，请加大。", JOBS),
    E("svg_artifact_unreadable", 422, "svg artifact is not readable: …", "无法读取该任务的 SVG 文件。", JOBS),
    E("pattern_too_dense", 400, "pattern too dense", "填充图案过密。", JOBS),
    # Projects, assets, stickers.
    E("project_not_found", 404, "project not found", "找不到该项目。", PROJECTS),
    E("project_unknown", 400, "unknown projectId: 0123…", "设计清单中的项目不存在。", COMMERCE),
    E("name_required", 400, Declared(PROJECT, "name"), "请填写名称。", (*PROJECTS, *ASSETS)),
    E("template_id_required", 400, Declared(PROJECT, "template_id"), "请选择模板。", PROJECTS),
    E("template_unknown", 400, "template_id is not a known template", "没有这个模板。", PROJECTS),
    E("background_color_required", 400, Declared(PROJECT, "background_color"), "请选择背景颜色。", PROJECTS),
    E("background_color_invalid", 400, Declared(PROJECT, "background_color"), "背景颜色必须是 #RRGGBB 格式。", PROJECTS),
    E("stickers_not_json", 400, Declared(PROJECT, "stickers"), "贴图列表不是有效的 JSON。", PROJECTS),
    E("stickers_not_array", 400, Declared(PROJECT, "stickers"), "贴图列表必须是 JSON 数组。", PROJECTS),
    E("too_many_stickers", 400, Declared(PROJECT, "stickers"), "贴图数量过多。", PROJECTS),
    E("sticker_invalid", 400, Declared(PROJECT, "stickers"), "某个贴图的字段无效（见 detail）。", PROJECTS),
    E("sticker_asset_unknown", 400, "stickers[0].asset_id is not an existing asset", "贴图引用的素材不存在。", PROJECTS),
    E("sticker_asset_not_image", 400, "stickers[0].asset_id must be an image or SVG asset", "贴图素材必须是图片或 SVG。", PROJECTS),
    E("sticker_image_too_large", 400, "stickers[0].asset_id has more than 50 megapixels", "贴图图片像素过多。", PROJECTS),
    E("sticker_image_unreadable", 400, "stickers[0].asset_id is not a readable image", "无法读取贴图图片。", PROJECTS),
    E("stickers_too_many_pixels", 422, "the stickers need 300 megapixels drawn; at most 200 are allowed", "贴图需要绘制的像素过多。", DRAWN),
    E("sticker_not_drawable", 422, "stickers[0] asset 0123… cannot be drawn", "某个贴图无法绘制。", DRAWN),
    E("asset_not_found", 404, "asset not found", "找不到该素材。", ASSETS),
    E("project_in_use", 409, "project cannot be changed: it is used by design list 4 (SUBMITTED)", "该项目已被提交的设计清单或订单使用，不能修改或删除。", PROJECTS),
    E("asset_in_use", 409, "asset is used by projects: Class of 2026", "该素材正被项目使用，不能删除。", ASSETS),
    # Exports.
    E("svg_required", 400, "svg is required", "请提供 SVG。", EXPORTS),
    E("svg_not_svg", 400, "svg is not an SVG document", "内容不是 SVG 文档。", EXPORTS),
    E("svg_too_large", 413, "svg exceeds 20 MB", "SVG 超过大小上限。", EXPORTS),
    E("svg_unsupported_content", 422, "svg uses unsupported content: foreignObject", "SVG 含有不支持的内容。", EXPORTS),
    E("numbers_too_large", 422, "the drawing has numbers too large for Illustrator", "图中的数值过大，无法导出。", EXPORTS),
    E("image_sticker_unreadable", 422, "an image sticker cannot be read", "无法读取某个图片贴图。", EXPORTS),
    E("pdf_colour_needs_cmyk", 400, "colour rgb needs standard x4 or none (PDF/X-1a is CMYK only)", "RGB 颜色需要 PDF/X-4 或不指定标准（PDF/X-1a 只支持 CMYK）。", EXPORTS),
    E("pdf_size_too_large", 400, "height from the poster's aspect exceeds 5000 mm", "按海报比例算出的尺寸过大。", EXPORTS),
    E("pdf_size_too_small", 400, "height from the poster's aspect is below 10 mm", "按海报比例算出的尺寸过小。", EXPORTS),
    E("icc_profiles_missing", 503, "the ICC profiles are not installed", "打印所需的色彩配置文件未安装。", EXPORTS),
    E("converter_unavailable", 502, "the converter is unavailable", "格式转换服务不可用，请稍后再试。", EXPORTS),
    E("converter_failed", 502, "converter failed: …", "格式转换失败。", EXPORTS),
    # Commerce.
    E("product_not_found", 404, "product not found", "找不到该商品。", COMMERCE),
    E("product_unknown", 400, "unknown productId: 7", "订单中的商品不存在。", ORDERS),
    E("product_unavailable", 400, "product 7 is not available", "该商品已下架。", ORDERS),
    E("address_not_found", 404, "address not found", "找不到该收货地址。", COMMERCE),
    E("record_not_found", 404, "order not found", "找不到该记录。", COMMERCE),
    E("design_list_not_editable", 409, "design list cannot be edited in status submitted", "设计清单已提交，不能修改。", COMMERCE),
    E("design_list_not_deletable", 409, "design list cannot be deleted in status submitted", "设计清单已提交，不能删除。", COMMERCE),
    E("design_list_empty", 400, "an empty design list cannot be submitted", "空的设计清单不能提交。", COMMERCE),
    E("order_not_payable", 409, "order cannot be paid in status paid", "当前状态下订单不能支付。", PAYING),
    E("pay_window_passed", 409, "the pay window of this order has passed", "订单已超过支付时限。", PAYING),
    E("notify_invalid", 400, "notify has no resource", "支付通知内容无效。", PAYING),
    E("notify_refused", 401, "notify signature does not verify", "支付通知验证失败。", PAYING),
    E("code_refused", 400, "code refused by the identity platform: 40029 invalid code", "登录码无效或已使用，请重新登录。", IDENTITY),
    E("identity_unavailable", 502, "identity platform timed out", "登录服务暂时不可用，请稍后再试。", IDENTITY),
    E("identity_bad_answer", 502, "identity platform answered without an openid", "登录服务的回答无效。", IDENTITY),
    E("identity_platform_error", 502, "identity platform error -1: system busy", "登录服务出错，请稍后再试。", IDENTITY),
    E("payments_not_configured", 502, "payments are not configured (WECHATPAY_MCH_ID)", "尚未配置支付。", PAYING),
    E("payments_unavailable", 502, "WeChat Pay timed out", "支付服务暂时不可用，请稍后再试。", PAYING),
    E("payments_bad_answer", 502, "WeChat Pay answered HTTP 500", "支付服务的回答无效。", PAYING),
    E("payments_platform_error", 502, "WeChat Pay error SYSTEM_ERROR: busy", "支付服务出错，请稍后再试。", PAYING),
)
# fmt: on
REGISTRY = {entry.code: entry for entry in CODES}


def generic(status: int) -> str:
    """The code of an error whose raiser named none."""
    return GENERIC.get(status, "internal_error" if status >= 500 else "bad_request")


def codes_for(path: str, status: int) -> list[str]:
    """The codes an operation on `path` may answer with `status`, sorted."""
    return sorted(
        entry.code
        for entry in CODES
        if entry.status == status
        and (not entry.paths or any(path.startswith(prefix) for prefix in entry.paths))
    )


def rows() -> list[dict[str, str]]:
    """docs/api.md's table of codes."""
    return [
        {
            "code": f"`{entry.code}`",
            "HTTP": str(entry.status),
            "endpoints": ", ".join(f"`{p}`" for p in entry.paths) or "any",
            "detail (example)": f"`{entry.detail}`",
            "中文": entry.chinese,
        }
        for entry in sorted(CODES, key=lambda entry: (entry.status, entry.code))
    ]
