"""From the model's token probabilities to spans with the edges the guidelines fix: the
edges of words (:mod:`~hf_anon.model.decoding.edges`: closed-class words, verbs and
headings trimmed, touching spans joined, lists split) and per label
(:mod:`~hf_anon.model.decoding.boundaries`: date ranges, places without their authority
noun, companies without their business noun, a docket apart from its court)."""
