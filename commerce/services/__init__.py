"""Write use cases of the commerce app, one function each (`<entity>_<action>`)."""
