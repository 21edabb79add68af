"""The browser checker: paste or upload a read-only snapshot, see the gaps. Nothing is stored."""

from typing import Annotated

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, Response

from app.checks import report_dict, run_checks
from app.checks.documents import SnapshotError
from app.checks.patterns import Pattern
from app.checks.snapshot import SNAPSHOT_COMMAND, load_snapshot
from app.deps import FilterDep, SettingsDep, StoreDep, TemplatesDep
from app.facets import Filter
from app.i18n import translate
from app.routes.common import make_view
from app.store import Store
from app.templating import View, render

router = APIRouter()
# The paste is shown again with its error; past this size only the error is (the box would
# carry megabytes back to the browser for nothing).
MAX_ECHO_CHARS = 200_000


def _page(
    request: Request,
    templates: TemplatesDep,
    view: View,
    *,
    report: dict[str, object] | None = None,
    error: str = "",
    snapshot_text: str = "",
    status_code: int = 200,
) -> Response:
    return render(
        request,
        templates,
        "checks/detail.html",
        {
            "report": report,
            "error": error,
            "snapshot_text": snapshot_text if len(snapshot_text) <= MAX_ECHO_CHARS else "",
            "snapshot_command": SNAPSHOT_COMMAND,
        },
        view=view,
        status_code=status_code,
    )


def grounding(store: Store) -> dict[str, tuple[str, ...]]:
    """Pattern slug -> IDs of the incidents that name it, from the built database."""
    out = {}
    for pattern in store.patterns:
        ranks = [int(r) for r in store.ranks(store.term_bits("pattern", pattern.slug))]
        out[pattern.slug] = tuple(sorted(row["slug"] for row in store.rows_by_rank(ranks)))
    return out


@router.get("/check", response_class=HTMLResponse, include_in_schema=False)
def show_checker(request: Request, templates: TemplatesDep, filters: FilterDep) -> Response:
    """The form: paste or upload the JSON or YAML of a read-only kubectl snapshot."""
    view = make_view(request, Filter(lang=filters.lang), "/check")
    return _page(request, templates, view)


@router.post("/check", response_class=HTMLResponse, include_in_schema=False)
async def check_snapshot(
    request: Request,
    store: StoreDep,
    settings: SettingsDep,
    templates: TemplatesDep,
    filters: FilterDep,
    snapshot: Annotated[str, Form()] = "",
    upload: Annotated[UploadFile | None, File()] = None,
) -> Response:
    """Run every check over the snapshot in memory and show the findings."""
    view = make_view(request, Filter(lang=filters.lang), "/check")
    lang = view.lang
    limit = settings.max_check_upload_bytes
    data: bytes = snapshot.encode("utf-8")
    if upload is not None and upload.filename:
        data = await upload.read(limit + 1)
    if not data.strip():
        error = translate("check.empty", lang)
        return _page(request, templates, view, error=error, status_code=400)
    if len(data) > limit:
        error = translate("check.too_large", lang, mb=limit // 1_000_000)
        return _page(request, templates, view, error=error, status_code=413)
    try:
        loaded = load_snapshot(data, upload.filename if upload and upload.filename else "")
    except SnapshotError as exc:
        return _page(
            request,
            templates,
            view,
            error=exc.text.get(lang),
            snapshot_text=snapshot,
            status_code=400,
        )
    patterns = [Pattern.model_validate(p.data) for p in store.patterns]
    report = run_checks(loaded, patterns, grounding(store))
    return _page(request, templates, view, report=report_dict(report), snapshot_text=snapshot)
