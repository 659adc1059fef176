"""Layer 5, answering: the sentences that answer, cited; the one ask pipeline (qa.Retriever); rendering."""
