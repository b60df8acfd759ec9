import Foundation

@testable import APIKit

extension LineDecoder {
    /// The lines that `chunks`, fed one after the other and then finished, split into.
    mutating func lines(of chunks: [[UInt8]]) throws(ResponseStreamError) -> [String] {
        var lines: [String] = []
        for chunk in chunks {
            try decode(chunk) { lines.append(String(decoding: $0, as: UTF8.self)) }
        }
        try finish { lines.append(String(decoding: $0, as: UTF8.self)) }
        return lines
    }
}

extension ServerSentEventDecoder {
    /// The events that `chunks`, fed one after the other, dispatch.
    mutating func events(of chunks: [[UInt8]]) throws(ResponseStreamError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for chunk in chunks {
            events += try decode(chunk)
        }
        return events
    }

    /// The events of `text`, fed whole to a new decoder.
    static func events(of text: String) throws(ResponseStreamError) -> [ServerSentEvent] {
        var decoder = ServerSentEventDecoder()
        return try decoder.decode(Data(text.utf8))
    }
}

/// `bytes` cut at `cuts` (ascending offsets; repeated or end offsets give empty chunks).
func chunks(_ bytes: [UInt8], cutAt cuts: [Int]) -> [[UInt8]] {
    var result: [[UInt8]] = []
    var start = 0
    for cut in cuts {
        result.append(Array(bytes[start..<cut]))
        start = cut
    }
    result.append(Array(bytes[start...]))
    return result
}

/// Every way of cutting `bytes` into two chunks and into three, then one byte per chunk.
func everySplit(of bytes: [UInt8]) -> [[[UInt8]]] {
    var splits: [[[UInt8]]] = []
    for first in 0...bytes.count {
        splits.append(chunks(bytes, cutAt: [first]))
        for second in first...bytes.count {
            splits.append(chunks(bytes, cutAt: [first, second]))
        }
    }
    splits.append(bytes.map { [$0] })
    return splits
}
