"""Paying orders with WeChat Pay (APIv3, JSAPI): the signing and encryption the platform uses
(`crypto`), its client (`client`), the one function that applies what the platform says
about a transaction or a refund (`ledger`), the endpoints' services (`services`), the
reconciliation the worker runs on its schedule (`reconcile`) and the stand-in platform for
tests and local development (`standin`, served by `standin_server`). docs/commerce.md,
"Payments", tells the flows."""
