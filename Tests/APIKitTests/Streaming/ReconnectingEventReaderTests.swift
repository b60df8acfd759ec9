import APIKitTestSupport
@_spi(Testing) import APIKitTestTime
import Foundation
import Testing

@_spi(Testing) @testable import APIKit

/// A transport that answers each streamed request with the next of its scripted connections,
/// and records the requests. A connection without `.finished` or `.failed` stays open until
/// cancelled; requests past the script cannot connect.
final class ScriptedStreamTransport: Transport {
    private let connections: [[TransportStreamEvent]]
    private let queue = DispatchQueue(label: "ScriptedStreamTransport")
    private let requestsSent = Protected<[URLRequest]>([])

    init(_ connections: [[TransportStreamEvent]]) {
        self.connections = connections
    }

    /// The requests sent so far, in order.
    var requests: [URLRequest] { requestsSent.value }

    /// A response head with `status` and, unless `nil`, a `Content-Type`.
    static func head(_ status: Int = 200, contentType: String? = "text/event-stream") -> URLResponse {
        let headers = contentType.map { ["Content-Type": $0] } ?? [:]
        return HTTPURLResponse(url: stubBase, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
    }

    func send(
        _ request: URLRequest,
        progress: (@Sendable (TransferProgress) -> Void)?,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> any TransportTask {
        queue.async { completion(.failure(URLError(.unsupportedURL))) }
        return ScriptedTask(onCancel: {})
    }

    func stream(
        _ request: URLRequest,
        onEvent: @escaping @Sendable (TransportStreamEvent) -> Void
    ) -> any TransportTask {
        let number = requestsSent.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        let events = number < connections.count ? connections[number] : [.failed(URLError(.cannotConnectToHost))]
        let open = Protected(true)
        queue.async {
            for event in events where open.value {
                onEvent(event)
                if case .finished = event { open.withLock { $0 = false } }
                if case .failed = event { open.withLock { $0 = false } }
            }
        }
        return ScriptedTask { [queue] in
            queue.async {
                guard open.value else { return }
                open.withLock { $0 = false }
                onEvent(.failed(URLError(.cancelled)))
            }
        }
    }
}

private struct ScriptedTask: TransportTask {
    let onCancel: @Sendable () -> Void

    func cancel() { onCancel() }
}

extension StreamingTests {
    @Suite(
        "reconnectingServerSentEvents(maximumAttempts:initialDelay:): EventSource reconnection over a ResponseStream")
    struct ReconnectingServerSentEventsTests {
        static let lost = TransportStreamEvent.failed(URLError(.networkConnectionLost))

        static func data(_ text: String) -> TransportStreamEvent {
            .data(Data(text.utf8))
        }

        /// The `Content-Type` of a response head.
        static func contentType(of head: URLResponse?) -> String? {
            (head as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
        }

        func events(
            _ transport: ScriptedStreamTransport,
            maximumAttempts: Int = 3,
            initialDelay: TimeInterval = 0.01
        ) -> DecodedResponseStream<ServerSentEvent> {
            StreamedRequest().stream(using: Session(transport: transport))
                .reconnectingServerSentEvents(maximumAttempts: maximumAttempts, initialDelay: initialDelay)
        }

        /// The data of every event of `transport`'s connections, read in a task whose waits
        /// `time` measures.
        func eventData(
            _ transport: ScriptedStreamTransport,
            time: ManualTime,
            maximumAttempts: Int = 3,
            initialDelay: TimeInterval = 0.01
        ) -> Task<[String], any Error> {
            let stream = StreamedRequest().stream(using: Session(transport: transport).timed(by: time))
                .reconnectingServerSentEvents(maximumAttempts: maximumAttempts, initialDelay: initialDelay)
            return Task {
                var received: [String] = []
                for try await event in stream { received.append(event.data) }
                return received
            }
        }

        @Test("a drop after two events reconnects with Last-Event-ID; the cut-off event is not delivered twice")
        func reconnectsWithLastEventID() async throws {
            let transport = ScriptedStreamTransport([
                [
                    .response(ScriptedStreamTransport.head()),
                    Self.data("id: 1\ndata: a\n\nid: 2\ndata: b\n\nid: 3\ndata: c"), Self.lost,
                ],
                [.response(ScriptedStreamTransport.head()), Self.data("id: 3\ndata: c\n\n"), .finished],
                [.response(ScriptedStreamTransport.head(204, contentType: nil)), .finished],
            ])
            var received: [ServerSentEvent] = []
            for try await event in events(transport) { received.append(event) }
            #expect(
                received == [
                    ServerSentEvent(data: "a", id: "1"), ServerSentEvent(data: "b", id: "2"),
                    ServerSentEvent(data: "c", id: "3"),
                ])
            #expect(transport.requests.map { $0.headerValue("Last-Event-ID") } == [nil, "2", "3"])
        }

        @Test(
            "the wait before reconnecting is the server's retry, else the initial delay",
            arguments: [("retry: 300\ndata: a\n\n", 0.0, 0.3), ("data: a\n\n", 0.2, 0.2)])
        func waitBeforeReconnecting(events body: String, initialDelay: TimeInterval, waited: TimeInterval)
            async throws
        {
            let transport = ScriptedStreamTransport([
                [.response(ScriptedStreamTransport.head()), Self.data(body), .finished],
                [.response(ScriptedStreamTransport.head(204)), .finished],
            ])
            let time = ManualTime()
            let loop = eventData(transport, time: time, initialDelay: initialDelay)
            #expect(await time.nextWait() == waited)
            time.advance(by: waited)
            #expect(try await loop.value == ["a"])
            #expect(transport.requests.count == 2)
            #expect(time.registered == [waited])
        }

        @Test("a 204 ends the sequence normally, without reconnecting")
        func noContentEnds() async throws {
            let transport = ScriptedStreamTransport([
                [.response(ScriptedStreamTransport.head(204, contentType: nil)), .finished]
            ])
            var count = 0
            for try await _ in events(transport) { count += 1 }
            #expect(count == 0)
            #expect(transport.requests.count == 1)
        }

        @Test("a 500 throws the status error and does not reconnect")
        func serverErrorEnds() async throws {
            let transport = ScriptedStreamTransport([
                [.response(ScriptedStreamTransport.head(500, contentType: "text/plain")), Self.data("down"), .finished]
            ])
            let error = await #expect(throws: RequestError.self) {
                for try await _ in events(transport) {}
            }
            guard case .unacceptableStatusCode(500, let body, _, _)? = error else {
                Issue.record("expected a 500, got \(String(describing: error))")
                return
            }
            #expect(body == Data("down".utf8))
            #expect(transport.requests.count == 1)
        }

        @Test("an accepted response that is not text/event-stream fails without reconnecting")
        func wrongContentTypeEnds() async throws {
            let transport = ScriptedStreamTransport([
                [.response(ScriptedStreamTransport.head(contentType: "application/json")), Self.data("{}"), .finished]
            ])
            let error = await #expect(throws: RequestError.self) {
                for try await _ in events(transport) {}
            }
            #expect(error?.stage == .responseValidation)
            #expect(error?.errorDescription?.contains("application/json") == true)
            guard
                case .unacceptableContentType(let contentType, let expected)? = error?.underlyingError
                    as? ResponseStreamError
            else {
                Issue.record("expected unacceptableContentType, got \(String(describing: error))")
                return
            }
            #expect(contentType == "application/json" && expected == "text/event-stream")
            #expect(transport.requests.count == 1)
        }

        @Test("a content type with parameters, or none at all, is read as events")
        func lenientContentType() async throws {
            let transport = ScriptedStreamTransport([
                [
                    .response(ScriptedStreamTransport.head(contentType: "Text/Event-Stream; charset=utf-8")),
                    Self.data("data: a\n\n"), .finished,
                ],
                [.response(ScriptedStreamTransport.head(contentType: nil)), Self.data("data: b\n\n"), .finished],
                [.response(ScriptedStreamTransport.head(204)), .finished],
            ])
            var received: [String] = []
            for try await event in events(transport) { received.append(event.data) }
            #expect(received == ["a", "b"])
        }

        @Test(
            "cancelling the consumer while it waits to reconnect stops at once, with no new request",
            .timeLimit(.minutes(1)))
        func cancelledDuringWait() async throws {
            let transport = ScriptedStreamTransport([
                [.response(ScriptedStreamTransport.head()), Self.data("data: a\n\n"), .finished]
            ])
            let time = ManualTime()
            let sequence = StreamedRequest().stream(using: Session(transport: transport).timed(by: time))
                .reconnectingServerSentEvents(initialDelay: 60)
            let task = Task { () async throws -> [String?] in
                var iterator = sequence.makeAsyncIterator()
                return [try await iterator.next()?.data, try await iterator.next()?.data]
            }
            #expect(await time.nextWait() == 60)  // the first connection ended: in the 60 s wait
            task.cancel()
            let result = await task.result  // the clock never moves: only the cancellation ends the wait
            guard case .failure(let error) = result else {
                Issue.record("expected cancelled, got \(result)")
                return
            }
            #expect((error as? RequestError)?.stage == .cancelled)
            #expect(transport.requests.count == 1)
        }

        @Test("after maximumAttempts connections in a row without an event, the last error is thrown")
        func maximumAttempts() async throws {
            let transport = ScriptedStreamTransport([])  // every request fails to connect
            let error = await #expect(throws: RequestError.self) {
                for try await _ in events(transport, maximumAttempts: 3, initialDelay: 0.001) {}
            }
            #expect(error?.stage == .transport)
            #expect((error?.underlyingError as? URLError)?.code == .cannotConnectToHost)
            #expect(transport.requests.count == 3)
        }

        @Test("by default, 5 connections in a row without an event, 3 s apart, then the last error")
        func defaultSettings() async throws {
            let transport = ScriptedStreamTransport([])  // every request fails to connect
            let time = ManualTime()
            let stream = StreamedRequest().stream(using: Session(transport: transport).timed(by: time))
                .reconnectingServerSentEvents()
            let loop = Task { for try await _ in stream {} }
            for _ in 1..<5 {
                #expect(await time.nextWait() == 3)
                time.advance(by: 3)
            }
            let error = await loop.result.errorValue as? RequestError
            #expect((error?.underlyingError as? URLError)?.code == .cannotConnectToHost)
            #expect(transport.requests.count == 5)
            #expect(time.registered == [3, 3, 3, 3])
        }

        @Test(
            "settings that cannot be followed fail the first read with a BuildError naming them; nothing is sent",
            arguments: [
                (0, 1.0, "maximumAttempts must be at least 1, not 0"),
                (-3, 1.0, "maximumAttempts must be at least 1, not -3"),
                (2, -5.0, "initialDelay must be a finite number of seconds, 0 or more, not -5.0"),
                (2, Double.infinity, "initialDelay must be a finite number of seconds, 0 or more, not inf"),
                (2, Double.nan, "initialDelay must be a finite number of seconds, 0 or more, not nan"),
            ])
        func invalidSettings(maximumAttempts: Int, initialDelay: TimeInterval, reason: String) async throws {
            let transport = ScriptedStreamTransport([])
            let error = await #expect(throws: RequestError.self) {
                for try await _ in events(transport, maximumAttempts: maximumAttempts, initialDelay: initialDelay) {}
            }
            guard case .buildFailed(.invalidReconnection(let named), _) = error else {
                Issue.record("expected .buildFailed(.invalidReconnection), got \(String(describing: error))")
                return
            }
            #expect(named == reason)
            #expect(transport.requests.isEmpty)

            var head = events(transport, maximumAttempts: maximumAttempts, initialDelay: initialDelay)
                .makeAsyncIterator()
            await #expect(throws: RequestError.self) { _ = try await head.response() }
            #expect(try await head.next() == nil)  // ended after its error
            #expect(transport.requests.isEmpty)
        }

        @Test("the smallest settings that can be followed: one connection, no wait")
        func smallestSettings() async throws {
            let once = ScriptedStreamTransport([])
            await #expect(throws: RequestError.self) {
                for try await _ in events(once, maximumAttempts: 1, initialDelay: 0) {}
            }
            #expect(once.requests.count == 1)

            let transport = ScriptedStreamTransport([])
            let time = ManualTime()
            let loop = eventData(transport, time: time, maximumAttempts: 2, initialDelay: 0)
            #expect(await time.nextWait() == 0)
            time.advance(by: 0)
            #expect(await loop.result.errorValue is RequestError)
            #expect(transport.requests.count == 2)
        }

        @Test("response() before the first event: the first connection's head, whose events follow")
        func headBeforeEvents() async throws {
            let transport = ScriptedStreamTransport([
                [
                    .response(ScriptedStreamTransport.head(contentType: "text/event-stream; connection=1")),
                    Self.data("data: a\n\n"), .finished,
                ],
                [.response(ScriptedStreamTransport.head(204, contentType: nil)), .finished],
            ])
            var iterator = events(transport, initialDelay: 0).makeAsyncIterator()
            let head = try await iterator.response()
            #expect(Self.contentType(of: head) == "text/event-stream; connection=1")
            // asked again: the same connection's head, nothing more sent
            let again = try await iterator.response()
            #expect(again === head)
            #expect(transport.requests.count == 1)
            #expect(try await iterator.next()?.data == "a")
            #expect(try await iterator.next() == nil)
            #expect(transport.requests.count == 2)
            #expect(try await iterator.response() == nil)
        }

        @Test("response() when the first connections fail before their head: the head of the one that answers")
        func headAfterFailedConnections() async throws {
            let transport = ScriptedStreamTransport([
                [Self.lost],
                [
                    .response(ScriptedStreamTransport.head(contentType: "text/event-stream; connection=2")),
                    Self.data("data: b\n\n"), .finished,
                ],
                [.response(ScriptedStreamTransport.head(204, contentType: nil)), .finished],
            ])
            var iterator = events(transport, maximumAttempts: 2, initialDelay: 0).makeAsyncIterator()
            let head = try await iterator.response()
            #expect(Self.contentType(of: head) == "text/event-stream; connection=2")
            #expect(transport.requests.count == 2)
            #expect(try await iterator.next()?.data == "b")
        }

        @Test("response() when every connection fails: the last error, then the iteration has ended")
        func headNeverArrives() async throws {
            let transport = ScriptedStreamTransport([[Self.lost], [Self.lost]])
            var iterator = events(transport, maximumAttempts: 2, initialDelay: 0).makeAsyncIterator()
            let error = await #expect(throws: RequestError.self) { _ = try await iterator.response() }
            #expect(error?.stage == .transport)
            #expect(transport.requests.count == 2)
            #expect(try await iterator.next() == nil)
            #expect(try await iterator.response() == nil)
            #expect(transport.requests.count == 2)
        }

        @Test("response() on a 204: nil, and the iteration has ended without reconnecting")
        func headOfNoContent() async throws {
            let transport = ScriptedStreamTransport([
                [.response(ScriptedStreamTransport.head(204, contentType: nil)), .finished]
            ])
            var iterator = events(transport, initialDelay: 0).makeAsyncIterator()
            #expect(try await iterator.response() == nil)
            #expect(try await iterator.next() == nil)
            #expect(transport.requests.count == 1)
        }

        @Test("a connection that delivers an event resets the count of failed attempts")
        func eventResetsAttempts() async throws {
            let transport = ScriptedStreamTransport([
                [Self.lost],
                [.response(ScriptedStreamTransport.head()), Self.data("id: 1\ndata: a\n\n"), Self.lost],
                [Self.lost],
            ])
            var received: [String] = []
            let error = await #expect(throws: RequestError.self) {
                for try await event in events(transport, maximumAttempts: 2, initialDelay: 0.001) {
                    received.append(event.data)
                }
            }
            #expect(received == ["a"])
            #expect(error?.stage == .transport)
            // 1 fails, 2 delivers (count reset), 3 and 4 fail: the second failure in a row ends it
            #expect(transport.requests.count == 4)
            #expect(transport.requests.last?.headerValue("Last-Event-ID") == "1")
        }

        @Test("an interceptor sees the Last-Event-ID of a reconnection")
        func interceptorSeesLastEventID() async throws {
            let seen = Protected<[String?]>([])
            struct Recorder: AdaptingInterceptor {
                let seen: Protected<[String?]>
                func adapt(_ urlRequest: URLRequest, for context: RequestContext) async throws -> URLRequest {
                    seen.append(urlRequest.value(forHTTPHeaderField: "Last-Event-ID"))
                    return urlRequest
                }
            }
            let transport = ScriptedStreamTransport([
                [.response(ScriptedStreamTransport.head()), Self.data("id: 7\ndata: a\n\n"), Self.lost],
                [.response(ScriptedStreamTransport.head(204)), .finished],
            ])
            let session = Session(transport: transport, interceptors: [Recorder(seen: seen)])
            for try await _ in StreamedRequest().stream(using: session)
                .reconnectingServerSentEvents(maximumAttempts: 3, initialDelay: 0.01)
            {}
            #expect(seen.value == [nil, "7"])
        }
    }
}
