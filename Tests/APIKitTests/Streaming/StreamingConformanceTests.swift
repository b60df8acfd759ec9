import Foundation
import Testing

@testable import APIKit

extension StreamingTests {
    @Suite("Streaming types: Sendable conformances, elements and typed errors")
    struct StreamingConformanceTests {
        func requireSendable<T: Sendable>(_: T.Type) {}

        /// Compiles only when `S` and its iterator yield `Element` and throw ``RequestError``.
        func requireTyped<S: AsyncSequence, Element>(_: S.Type, _: Element.Type) -> String
        where S.Element == Element, S.Failure == RequestError, S.AsyncIterator.Failure == RequestError {
            "\(S.Element.self) \(S.Failure.self) \(S.AsyncIterator.Failure.self)"
        }

        @Test("every stream yields its element type and throws RequestError, iterators too")
        func typedElementsAndErrors() {
            #expect(requireTyped(ResponseStream.self, Data.self) == "Data RequestError RequestError")
            #expect(
                requireTyped(DecodedResponseStream<ServerSentEvent>.self, ServerSentEvent.self)
                    == "ServerSentEvent RequestError RequestError")
            #expect(requireTyped(DecodedResponseStream<String>.self, String.self) == "String RequestError RequestError")
        }

        @Test("ResponseStream is the stream whose elements are Data chunks, and its Iterator that stream's")
        func responseStreamIsTheDataStream() {
            #expect(ResponseStream.self == DecodedResponseStream<Data>.self)
            #expect(ResponseStream.Iterator.self == DecodedResponseStream<Data>.Iterator.self)
        }

        @Test("the streaming types are Sendable")
        func sendable() {
            requireSendable(ServerSentEvent.self)
            requireSendable(ServerSentEventDecoder.self)
            requireSendable(JSONLinesDecoder<Int>.self)
            requireSendable(ResponseStreamError.self)
            requireSendable(ResponseStream.self)
            requireSendable(DecodedResponseStream<ServerSentEvent>.self)
            requireSendable(TransportStreamEvent.self)
        }
    }
}
