import Testing

@testable import APIKit

extension StreamingTests {
    @Suite("Streaming types: Sendable conformances")
    struct StreamingConformanceTests {
        func requireSendable<T: Sendable>(_: T.Type) {}

        @Test("the streaming types are Sendable")
        func sendable() {
            requireSendable(ServerSentEvent.self)
            requireSendable(ServerSentEventDecoder.self)
            requireSendable(JSONLinesDecoder<Int>.self)
            requireSendable(StreamDecodingError.self)
            requireSendable(ResponseStream.self)
            requireSendable(DecodedResponseStream<ServerSentEvent>.self)
            requireSendable(ReconnectingServerSentEvents.self)
            requireSendable(ServerSentEventReconnection.self)
            requireSendable(UnacceptableContentType.self)
            requireSendable(ResponseStreamError.self)
            requireSendable(TransportStreamEvent.self)
        }
    }
}
