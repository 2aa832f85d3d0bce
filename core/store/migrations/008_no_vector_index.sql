-- No HNSW index on the vectors: nothing queries it (the in-process recall index scores every
-- vector, core/recall/index.py), and keeping it cost every vector write a graph insert -- in the
-- embedded engine's WebAssembly 30-45 ms a row at a few thousand rows, growing with the graph
-- (a 100k import: hours of the filler). docs/architecture.md "At scale" says when vector search
-- would move to the server and the index come back there.
DROP INDEX IF EXISTS neurons_embedding;
