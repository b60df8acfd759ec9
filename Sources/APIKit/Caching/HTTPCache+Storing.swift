extension HTTPCache {
    /// Stores `response` to `request` as a variant of its URL when §3 allows it: replaces the
    /// variant the same request selects, keeps the others. A response from another URL — where
    /// a redirect the transport followed led — is not stored (§4): it is not the answer to the
    /// URL asked for, and the redirect's own freshness is unknown. Nor is a response whose
    /// exchange (`ticket`) an invalidation of `key` overlapped (see ``RecordWrites``).
    func storeIfAllowed(
        _ response: CallResponse, for request: URLRequest, key: String, directives: CacheControl,
        requestTime: Date, responseTime: Date, ticket: RecordWrites.Ticket
    ) async {
        // Only a body read whole: a stream's or a download's is not in memory.
        guard response.pending == nil, let body = response.data,
            let head = response.urlResponse as? HTTPURLResponse, CacheKey.isSameTarget(head.url, as: request.url)
        else { return }
        let responseDirectives = CacheControl(head.value(forHTTPHeaderField: "Cache-Control"))
        guard
            CacheStorability.isStorable(
                method: "GET", request: directives, status: head.statusCode, response: responseDirectives,
                headers: { head.value(forHTTPHeaderField: $0) }),
            let names = CacheKey.varyNames(of: head.value(forHTTPHeaderField: "Vary"))
        else { return }
        // The transport adds the cookies of its storage below the cache, unseen here: a response
        // that varies on them is stored only when the request carries its own.
        if names.contains("cookie"), RequestFields(request).value("Cookie") == nil { return }
        let partition = CacheKey.partition(of: request)
        let variant = StoredResponse(
            partition: partition, varyNames: names,
            varyFingerprint: CacheKey.varyFingerprint(of: request, names: names),
            requestTime: requestTime, responseTime: responseTime,
            url: (head.url ?? request.url).map(CacheKey.normalised) ?? "",
            status: head.statusCode, headers: Self.dated(Self.storedHeaders(of: head), received: responseTime),
            body: body)
        var record = await storedRecord(key) ?? StoredRecord(variants: [])
        record.variants.removeAll { old in
            old.partition == partition
                && CacheKey.varyFingerprint(of: request, names: old.varyNames) == old.varyFingerprint
        }
        record.variants.append(variant)
        record.variants.removeFirst(max(0, record.variants.count - StoredRecord.maxVariants))
        await write(record, key: key, ticket: ticket)
    }

    /// Puts `updated` where `stored` was, if it is still there and no invalidation overlapped
    /// the exchange that brought `updated` (`ticket`).
    func replace(_ stored: StoredResponse, with updated: StoredResponse, key: String, ticket: RecordWrites.Ticket)
        async
    {
        guard var record = await storedRecord(key), let index = record.variants.firstIndex(of: stored) else {
            return
        }
        record.variants[index] = updated
        await write(record, key: key, ticket: ticket)
    }

    /// Writes `record`, read and changed by the exchange of `ticket`, under `key`: not when an
    /// invalidation of `key` overlapped that exchange, and removed again when one began while it
    /// was written, so that the write never brings back what the invalidation removed (see
    /// ``RecordWrites``). That removal is an invalidation too: an exchange that read the record
    /// in the moment it was back writes nothing back either.
    func write(_ record: StoredRecord, key: String, ticket: RecordWrites.Ticket) async {
        guard !writes.isOvertaken(ticket) else { return }
        await store.setRecord(record.encoded(), forKey: key)
        guard writes.isOvertaken(ticket) else { return }
        await invalidateRecord(key)
    }

    private func storedRecord(_ key: String) async -> StoredRecord? {
        await store.record(forKey: key).flatMap(StoredRecord.init(decoding:))
    }

    /// `request` made conditional on `stored`'s validators (§4.3.1): `If-None-Match` with its
    /// `ETag`, `If-Modified-Since` with its `Last-Modified`; `nil` when it has neither.
    static func conditional(_ request: URLRequest, for stored: StoredResponse) -> URLRequest? {
        let etag = stored.header("ETag")
        let lastModified = stored.header("Last-Modified")
        guard etag != nil || lastModified != nil else { return nil }
        var conditional = request
        if let etag { conditional.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { conditional.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        return conditional
    }

    /// Whether a 304 to `request` speaks of `stored` (§4.3.4): it comes from the URL asked for,
    /// not from where a redirect led (§4), and its validator is the stored response's — its
    /// `ETag` when it has one (a stored response without that `ETag` is not the one it
    /// confirms), else its `Last-Modified`, which the stored response must have with the same
    /// value. A 304 with neither updates the response it validated: the request was made
    /// conditional on that response's validators, and RFC 9110 §15.4.5 does not require a 304
    /// to repeat `Last-Modified`.
    static func validates(_ stored: StoredResponse, _ head: HTTPURLResponse, for request: URLRequest) -> Bool {
        guard CacheKey.isSameTarget(head.url, as: request.url) else { return false }
        for name in ["ETag", "Last-Modified"] {
            guard let new = head.value(forHTTPHeaderField: name) else { continue }
            guard let old = stored.header(name) else { return false }
            return new.trimmingCharacters(in: .whitespaces) == old.trimmingCharacters(in: .whitespaces)
        }
        return true
    }

    /// `stored` with the headers of the 304 that validated it (§3.2, §4.3.4): each field of the
    /// 304 replaces the stored field of that name, but `Content-Length` and the hop-by-hop
    /// fields; its age starts again from the validation.
    ///
    /// `Age` and `Date` describe the response the server sent, not the stored one (§4.2.3, §5.1:
    /// an age counts from the last validation at the origin): a stored `Age` or `Date` that the
    /// 304 does not replace is dropped, not kept against the new response time. Without them the
    /// age counts from the validation: as for a response stored without a `Date`, the second
    /// the 304 was received in becomes its `Date` (``dated(_:received:)``).
    static func freshened(
        _ stored: StoredResponse, with head: HTTPURLResponse, requestTime: Date, responseTime: Date
    ) -> StoredResponse {
        var updated = stored
        for name in ["Age", "Date"] where head.value(forHTTPHeaderField: name) == nil {
            updated.headers.removeAll { FieldName.same($0.name, name) }
        }
        for header in storedHeaders(of: head) where header.name.caseInsensitiveCompare("Content-Length") != .orderedSame
        {
            updated.headers.removeAll { $0.name.caseInsensitiveCompare(header.name) == .orderedSame }
            updated.headers.append(header)
        }
        updated.headers = dated(updated.headers, received: responseTime)
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// `headers` with a `Date`: RFC 9110 §6.6.1 has a recipient with a clock that stores a
    /// response without one add the time it was received; one whose `Date` is not a date has
    /// it replaced so (a recipient may). Headers with a `Date` that reads are returned as they are.
    ///
    /// An HTTP date names a whole second: `received` is written rounded down, never later than
    /// it is. The response's apparent age (RFC 9111 §4.2.3, `response_time - date_value`) is
    /// then under a second and never negative; an `Expires` counts from that `Date`, so the
    /// response is never fresh past its `Expires`; a `max-age` counts from the start of the
    /// second it was received in, as it does for a response whose server sent that `Date`.
    static func dated(_ headers: [StoredResponse.Header], received: Date) -> [StoredResponse.Header] {
        if let date = StoredResponse.header("Date", in: headers), HTTPDate.parse(date, now: received) != nil {
            return headers
        }
        guard let value = HTTPDate.format(received) else { return headers }
        var dated = headers.filter { !FieldName.same($0.name, "Date") }
        dated.append(StoredResponse.Header(name: "Date", value: value))
        return dated
    }

    /// The headers of `head` a cache keeps (§3.1): all but the hop-by-hop ones and those
    /// `Connection` names.
    static func storedHeaders(of head: HTTPURLResponse) -> [StoredResponse.Header] {
        var excluded: Set<String> = [
            "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade",
        ]
        if let connection = head.value(forHTTPHeaderField: "Connection") {
            for name in connection.split(separator: ",") { excluded.insert(name.trimmingOWS.lowercased()) }
        }
        return head.allHeaderFields.compactMap { name, value in
            guard let name = name as? String, let value = value as? String, !excluded.contains(name.lowercased())
            else { return nil }
            return StoredResponse.Header(name: name, value: value)
        }.sorted { $0.name < $1.name }
    }
}
