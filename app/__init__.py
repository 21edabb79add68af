"""Incident Library: public infrastructure incident reports, faceted, bilingual, shareable."""
