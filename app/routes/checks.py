"""The browser checker: paste or upload a read-only snapshot, see the gaps. Nothing is stored."""

from typing import Annotated

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, Response

from app.checks import report_dict, run_checks
from app.checks.patterns import Pattern
from app.checks.snapshot import SNAPSHOT_COMMAND, SnapshotError, load_snapshot
from app.deps import FilterDep, SettingsDep, StoreDep, TemplatesDep
from app.facets import Filter
from app.routes.pages import make_view
from app.store import Store
from app.templating import View, render

router = APIRouter()


def _page(
    request: Request,
    templates: TemplatesDep,
    view: View,
    *,
    report: dict[str, object] | None = None,
    error: str = "",
    pasted: str = "",
    status_code: int = 200,
) -> Response:
    """The checker page; after an error the pasted text is shown again to be corrected."""
    return render(
        request,
        templates,
        "checks/detail.html",
        {
            "report": report,
            "error": error,
            "pasted": pasted,
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
    """The form: paste or upload the JSON of a read-only kubectl snapshot."""
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
    limit = settings.max_check_upload_bytes
    data: bytes = snapshot.encode("utf-8")
    if upload is not None and upload.filename:
        data = await upload.read(limit + 1)
    if not data.strip():
        return _page(request, templates, view, error=view.t("check.error.empty"), status_code=400)
    if len(data) > limit:
        message = view.t("check.error.too_large", mb=limit // 1_000_000)
        return _page(request, templates, view, error=message, status_code=413)
    try:
        loaded = load_snapshot(data)
    except SnapshotError as exc:
        # The reason comes from the snapshot reader (in English); the sentence around it is in
        # the page's language, and the pasted text stays in the box to be corrected.
        message = view.t("check.error.unreadable", reason=str(exc))
        return _page(request, templates, view, error=message, pasted=snapshot, status_code=400)
    patterns = [Pattern.model_validate(p.data) for p in store.patterns]
    report = run_checks(loaded, patterns, grounding(store))
    return _page(request, templates, view, report=report_dict(report))
