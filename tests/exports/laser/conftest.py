from tests.exports.pdf.conftest import poster_folders, poster_job  # noqa: F401  (shared posters)
