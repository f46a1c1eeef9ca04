"""Every duel between two Wizards Cup duel contexts, resolved ahead (written by write_duel_results.py).

Resolving them takes a second or two of CPU in every process that plays against Hard or asks the coach,
and in every warm parent of ``coven serve``; reading them takes a millisecond. They are used only when
CONTEXTS_DIGEST matches the contexts as numbered now, so a change to the wizards falls back to resolving.
"""

CONTEXTS_DIGEST = "b72b6f90f60b8ab14405fd06b1c650bc239090351285a2f281328f386aa25cec"
DUEL_CAP = 3
RESULTS = (  # base64 of zlib of int8 outcomes (0 first side wins, 1 second, 2 both out), contexts x contexts x duel
    "eNrt3e2OqjAQAFD1/R/6/jDXrVJwSj8oeBpCNgQRe5h2WnR5PPLlnpTs9tv/8vF3dods+XqE1/bszmsbL18eyJAhQ4YsRnZL",
    "yonI1soMVb12PtunvVwjQ4YMGbLlOnucSFqiTEWPDJmC7GfLY2y5J0vpKL7ZOXQ4fs3sxPZhs2tkyJAhQ5aub4FSlIdMNXo9",
    "JHOLDJOD+38dSiNDhqwHWeS12bnHr5OT+Y+WLmOrN3tPbe26jc1q5j/KxjGLuGsuIWTIkNWQlfZlyHaTRfo1fdkpyErvlyFD",
    "hqw3mb7s8mTxuzlTkc029K5JP5AhQ9abbHf6EYfWl00y+4EMGbLeE1b7vhGU3pWe4UZJZQa++71G3i9DhgwZMmRPs78lOVx0",
    "SV7+pr+y/9tHaLW8V0R+e7nZ/veKvPa5W3aNDBkyZMiSdb+hdP5TJkuPb/MeNZTeePmJZj+QIUNWOWGFrJRs/psvyDSMyJDp",
    "y5CN6ctu85WGV8jZCzJkyJAhMy6T5COT5EvyTVhpGJEhQ6Yv05eJMg0jMg2jhlGUaRiRIUOmL9OXIdMwIqv/rVwnsh0NRVEb",
    "ftWHaCBDhgwZMmSzVXvNN6yQIUOGDNm9w79qaT6ob1IVPZ6sFBkORy7LHj+jqIyymo9za1SQiTJkyKb9fVnv9GPwvaRfKMiQ",
    "IUN2jSL9MC4zLpPkizJkyJAhQ4YMGTJJviRflCFDhgyZvgyZKEOGTMOITJQhQ4YMmb7sGmTp4befmZZ/0trb87PbP3SutIpq",
    "yqtCGvIhQ4ZsWb3LzgKZKJvnO/kjM8Ye6c1aGhN5r97pBzJkyJAhu97sR++heoTP7EeT6v0pMlGGDFn/oXSUbIb046j3Whtu",
    "HzT7gQzZBcnW5iGR/WyUFZ1PfR7ycWLZnbM7bGwcSbZvGnl55ZeeJzJkyJAh2zH2LBpKf7kqBqYfNVdmqyH52j4RvmGzH8iQ",
    "IUN2JbLI8SsnWkf+27HeZK3Op/TfViNDhgwZskqyEw2l75OV0qp+zSd/rJEhQ4YMGbIrkY3ImgIZ41GZ24TlmaIv16JMlIky",
    "USbKRJkoE2WiTJRtRNk/7pipWg==",
)
