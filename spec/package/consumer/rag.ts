// Consumer check of `rx-advisors/rag` (see root.ts): a vector store, question answering with
// its documents, and modular RAG with a query rewrite.
import { ChatClient, type ChatModel } from 'rx-advisors';
import {
  InMemoryVectorStore,
  QuestionAnswerAdvisor,
  RetrievalAugmentationAdvisor,
  RewriteQueryTransformer,
  VectorStoreDocumentRetriever,
  type EmbeddingModel,
} from 'rx-advisors/rag';
import type { Observable } from 'rxjs';

export function answer(
  model: ChatModel,
  embeddingModel: EmbeddingModel,
  question: string,
): Observable<string> {
  const vectorStore = new InMemoryVectorStore({ embeddingModel });
  const client = ChatClient.builder(model).build();
  const rag = new RetrievalAugmentationAdvisor({
    queryTransformers: [new RewriteQueryTransformer({ chatClient: client })],
    documentRetrievers: [new VectorStoreDocumentRetriever({ vectorStore })],
  });
  return client
    .prompt(question)
    .advisors(new QuestionAnswerAdvisor({ vectorStore }), rag)
    .call()
    .content();
}
