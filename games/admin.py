"""Staff pages for what players write: chat lines and reports (docs/social.md "Chat"). The arenas'
pages are the feature's own (games/tournaments/admin.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from .models import ChatMessage, Report

# django-stubs makes ModelAdmin generic; the running Django class is not subscriptable.
if TYPE_CHECKING:
    _ChatAdmin = admin.ModelAdmin[ChatMessage]
    _ReportAdmin = admin.ModelAdmin[Report]
else:
    _ChatAdmin = _ReportAdmin = admin.ModelAdmin


@admin.register(ChatMessage)
class ChatMessageAdmin(_ChatAdmin):
    list_display = ("created_at", "match", "room", "author", "text")
    list_filter = ("room",)
    search_fields = ("text", "author__username")
    raw_id_fields = ("match", "author")
    date_hierarchy = "created_at"
    list_select_related = ("author",)


@admin.register(Report)
class ReportAdmin(_ReportAdmin):
    list_display = ("created_at", "reported", "reporter", "match", "message_text", "handled")
    list_filter = ("handled",)
    search_fields = ("reported__username", "reporter__username", "reason")
    raw_id_fields = ("reporter", "reported", "match", "message")
    readonly_fields = ("created_at", "context_lines")
    list_select_related = ("reported", "reporter", "message")
    actions = ("mark_handled",)

    @admin.display(description="message")
    def message_text(self, report: Report) -> str:
        return report.message.text if report.message is not None else ""

    @admin.display(description="context")
    def context_lines(self, report: Report) -> str:
        """The chat around the report as it was, one line each (escaped by the admin)."""
        return "\n".join(
            f"[{line.get('room', '')}] {line.get('author', '')}: {line.get('text', '')}"
            for line in report.context or []
            if isinstance(line, dict)
        )

    @admin.action(description="Mark as handled")
    def mark_handled(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        queryset.update(handled=True)
