import Foundation
import Testing

@testable import APIKit

extension StreamingTests {
    @Suite("ServerSentEventDecoder: the WHATWG HTML event stream examples and field rules")
    struct ServerSentEventDecoderTests {
        // MARK: The spec's examples

        @Test("spec: three data lines make one message event, joined with LF")
        func stockTicker() throws {
            let events = try ServerSentEventDecoder.events(of: "data: YHOO\ndata: +2\ndata: 10\n\n")
            #expect(events == [ServerSentEvent(event: "message", data: "YHOO\n+2\n10")])
        }

        @Test("spec: a comment, ids that persist and reset, and only one space removed after the colon")
        func firstSecondThirdEvent() throws {
            var decoder = ServerSentEventDecoder()
            let text = ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n"
            let events = try decoder.decode(Data(text.utf8))
            #expect(
                events == [
                    ServerSentEvent(data: "first event", id: "1"),
                    ServerSentEvent(data: "second event", id: nil),
                    ServerSentEvent(data: " third event", id: nil),
                ]
            )
            #expect(decoder.lastEventID == nil)
        }

        @Test(
            "spec: `data` alone makes an empty event, two make one LF, and the last block without a blank line is lost")
        func emptyData() throws {
            var decoder = ServerSentEventDecoder()
            let events = try decoder.decode(Data("data\n\ndata\ndata\n\ndata:".utf8))
            try decoder.finish()
            #expect(events == [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")])
        }

        @Test("spec: `data:test` and `data: test` are the same event")
        func spaceAfterColonIsOptional() throws {
            let events = try ServerSentEventDecoder.events(of: "data:test\n\ndata: test\n\n")
            #expect(events == [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
        }

        @Test("spec: `event` names the type of the next event only")
        func namedEvents() throws {
            let text =
                "event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\ndata: x\n\n"
            let events = try ServerSentEventDecoder.events(of: text)
            #expect(events.map(\.event) == ["add", "remove", "add", "message"])
            #expect(events.map(\.data) == ["73857293", "2153", "113411", "x"])
        }

        // MARK: Field rules

        @Test("an empty `event` value means message, and the type is reset by a blank line without data")
        func eventTypeDefaults() throws {
            let events = try ServerSentEventDecoder.events(of: "event:\ndata: a\n\nevent: lost\n\ndata: b\n\n")
            #expect(events == [ServerSentEvent(data: "a"), ServerSentEvent(data: "b")])
        }

        @Test("a block without data dispatches nothing but still sets the last event ID")
        func idWithoutData() throws {
            var decoder = ServerSentEventDecoder()
            #expect(try decoder.decode(Data("id: 5\n\n".utf8)) == [])
            #expect(decoder.lastEventID == "5")
            #expect(try decoder.decode(Data("data: x\n\n".utf8)) == [ServerSentEvent(data: "x", id: "5")])
        }

        @Test("the last event ID persists across events until an `id` changes it; an id with NUL is ignored")
        func idPersistsAndNULIsIgnored() throws {
            let text = "id: 1\ndata: a\n\ndata: b\n\nid: 2\u{0}x\ndata: c\n\nid: 3\ndata: d\n\nid:\ndata: e\n\n"
            let events = try ServerSentEventDecoder.events(of: text)
            #expect(events.map(\.id) == ["1", "1", "1", "3", nil])
        }

        @Test("the last event ID string changes only when a blank line ends the block")
        func lastEventIDAtDispatch() throws {
            var decoder = ServerSentEventDecoder()
            _ = try decoder.decode(Data("id: 1\n\nid: 2\ndata: x\n".utf8))
            #expect(decoder.lastEventID == "1")
            _ = try decoder.decode(Data("\n".utf8))
            #expect(decoder.lastEventID == "2")
        }

        @Test("`retry` takes only ASCII digits; the event carries its own block's value, the decoder the latest")
        func retry() throws {
            var decoder = ServerSentEventDecoder()
            let text =
                "retry: 1000\n\ndata: a\nretry: 2500\n\ndata: b\n\nretry: 10a\ndata: c\n\nretry:\nretry: -1\nretry: 1.5\n"
                + "retry:  7\nretry: 99999999999999999999999\ndata: d\n\n"
            let events = try decoder.decode(Data(text.utf8))
            #expect(events.map(\.retry) == [2500, nil, nil, nil])
            #expect(decoder.reconnectionTime == 2500)
            _ = try decoder.decode(Data("retry: 0\n\n".utf8))
            #expect(decoder.reconnectionTime == 0)
        }

        @Test("comments, unknown fields and fields of another case are ignored; colons in the value stay")
        func ignoredLines() throws {
            let text = ":comment\n: another\nData: no\nfoo: bar\nid2: 9\ndata: a:b: c\ndata:\tt\n\n"
            let events = try ServerSentEventDecoder.events(of: text)
            #expect(events == [ServerSentEvent(data: "a:b: c\n\tt")])
        }

        @Test("CR, LF and CRLF end lines alike, and CR CR is a blank line")
        func lineEnds() throws {
            let events = try ServerSentEventDecoder.events(of: "data: a\r\rdata: b\r\n\r\ndata: c\n\n")
            #expect(events.map(\.data) == ["a", "b", "c"])
        }

        @Test("an event without its blank line at the end of the stream is discarded, with its id")
        func incompleteEventDiscarded() throws {
            var decoder = ServerSentEventDecoder()
            #expect(
                try decoder.decode(Data("id: 1\ndata: a\n\nid: 2\ndata: cut\n".utf8)) == [
                    ServerSentEvent(data: "a", id: "1")
                ])
            try decoder.finish()
            #expect(decoder.lastEventID == "1")
            #expect(try decoder.decode(Data("data: next\n\n".utf8)) == [ServerSentEvent(data: "next", id: "1")])
        }

        // MARK: Encoding

        @Test("one leading BOM is stripped; a second one is part of the first field name")
        func byteOrderMark() throws {
            #expect(try ServerSentEventDecoder.events(of: "\u{FEFF}data: a\n\n") == [ServerSentEvent(data: "a")])
            #expect(
                try ServerSentEventDecoder.events(of: "\u{FEFF}\u{FEFF}data: a\n\ndata: b\n\n") == [
                    ServerSentEvent(data: "b")
                ])
            #expect(
                try ServerSentEventDecoder.events(of: "data: \u{FEFF}a\n\n") == [ServerSentEvent(data: "\u{FEFF}a")])
        }

        @Test("the start of a BOM that goes on differently is text, and finish() expects a BOM again")
        func brokenByteOrderMark() throws {
            var decoder = ServerSentEventDecoder()
            // EF BB then LF: one U+FFFD as a field name, ignored, and the stream goes on.
            #expect(
                try decoder.events(of: [[0xEF], [0xBB], Array("\ndata: a\n\n".utf8)]) == [ServerSentEvent(data: "a")])
            try decoder.finish()
            #expect(
                try decoder.events(of: [[0xEF, 0xBB], [0xBF], Array("data: b\n\n".utf8)]) == [
                    ServerSentEvent(data: "b")
                ])
        }

        @Test("invalid UTF-8 becomes U+FFFD in data, event types and ids")
        func invalidUTF8() throws {
            var bytes: [UInt8] =
                Array("event: t".utf8) + [0xFF] + Array("\nid: ".utf8) + [0xC3] + Array("\ndata: a".utf8)
            bytes += [0xFF, 0x62, 0xE2, 0x82] + Array("\ndata: ".utf8) + [0xF0, 0x9F] + Array("\n\n".utf8)
            var decoder = ServerSentEventDecoder()
            let events = try decoder.decode(bytes)
            #expect(
                events == [ServerSentEvent(event: "t\u{FFFD}", data: "a\u{FFFD}b\u{FFFD}\n\u{FFFD}", id: "\u{FFFD}")])
        }

        // MARK: Limits

        @Test("data and type up to maximumEventSize pass; one byte more throws eventTooLarge until finish()")
        func eventSizeLimit() throws {
            var decoder = ServerSentEventDecoder(maximumEventSize: 10)
            #expect(try decoder.decode(Data("data: 012345678\n\n".utf8)) == [ServerSentEvent(data: "012345678")])
            #expect(try decoder.decode(Data("event: 0123456789\n\n".utf8)) == [])
            #expect(
                try decoder.decode(Data("data: 0123\ndata: 0123\n\n".utf8)) == [ServerSentEvent(data: "0123\n0123")])
            #expect(throws: ResponseStreamError.self) { try decoder.decode(Data("event: ab\ndata: 01234567\n\n".utf8)) }
            #expect(throws: ResponseStreamError.self) { try decoder.decode(Data("data: a\n\n".utf8)) }
            try decoder.finish()
            #expect(try decoder.decode(Data("data: a\n\n".utf8)) == [ServerSentEvent(data: "a")])
        }

        @Test(
            "a line more than 8 bytes longer than maximumEventSize, even a comment, throws eventTooLarge naming the limit"
        )
        func longLine() throws {
            var decoder = ServerSentEventDecoder(maximumEventSize: 16)
            #expect(try decoder.decode(Data(":\(String(repeating: "x", count: 23))\n".utf8)) == [])
            do {
                _ = try decoder.decode(Data(":\(String(repeating: "x", count: 24))".utf8))
                Issue.record("a 25-byte line passed a limit of 16 + 8")
            } catch {
                guard case .eventTooLarge(let limit) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(limit == 16)
            }
        }
    }
}
