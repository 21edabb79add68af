"""Request dependencies shared by page and API routes."""

from typing import Annotated

from fastapi import Depends, Request
from jinja2_fragments.fastapi import Jinja2Blocks

from app.config import Settings
from app.facets import Filter
from app.incidents import parse_filter
from app.store import Store


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_store(request: Request) -> Store:
    store: Store = request.app.state.stores.get()
    return store


def get_templates(request: Request) -> Jinja2Blocks:
    templates: Jinja2Blocks = request.app.state.templates
    return templates


StoreDep = Annotated[Store, Depends(get_store)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
TemplatesDep = Annotated[Jinja2Blocks, Depends(get_templates)]


def get_filter(request: Request, store: StoreDep) -> Filter:
    """The request's Filter; FilterError (over-long or too many values) becomes a 400."""
    return parse_filter(store, request.query_params.multi_items())


FilterDep = Annotated[Filter, Depends(get_filter)]
