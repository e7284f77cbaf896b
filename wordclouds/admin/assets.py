"""Admin for assets, projects, fonts and templates."""
