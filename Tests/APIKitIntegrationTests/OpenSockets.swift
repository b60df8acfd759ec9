import Foundation

/// The TCP connections this process holds open, read from `/proc` (Linux).
///
/// Counting every descriptor before and after a request is noisy while other suites run in
/// parallel; instead a fault test asks the fault server which client ports its requests came
/// from (`/ports?tag=`) and checks that no descriptor of this process is still a socket
/// connected from one of those ports to the server.
enum OpenSockets {
    /// A connection: local and remote TCP ports.
    struct Connection: Hashable {
        var localPort: Int
        var remotePort: Int
    }

    /// Whether `/proc` can be read here; the checks need it.
    static var available: Bool {
        FileManager.default.fileExists(atPath: "/proc/self/fd")
            && FileManager.default.fileExists(atPath: "/proc/net/tcp")
    }

    /// The TCP connections held by a descriptor of this process.
    static func held() -> Set<Connection> {
        let inodes = socketInodes()
        var held = Set<Connection>()
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // read to the end: /proc files report a size of 0, which some readers trust
            guard let handle = FileHandle(forReadingAtPath: table) else { continue }
            let text = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
            handle.closeFile()
            for line in text.split(separator: "\n").dropFirst() {
                let columns = line.split(separator: " ", omittingEmptySubsequences: true)
                guard columns.count > 9, inodes.contains(String(columns[9])),
                    let local = port(of: columns[1]), let remote = port(of: columns[2])
                else { continue }
                held.insert(Connection(localPort: local, remotePort: remote))
            }
        }
        return held
    }

    /// The inodes of the sockets this process has descriptors for (`socket:[inode]` links).
    private static func socketInodes() -> Set<String> {
        let directory = "/proc/self/fd"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var inodes = Set<String>()
        for entry in entries {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\(entry)"),
                target.hasPrefix("socket:[")
            else { continue }
            inodes.insert(String(target.dropFirst("socket:[".count).dropLast()))
        }
        return inodes
    }

    /// The port of an `ADDRESS:PORT` column, the port in hexadecimal.
    private static func port(of column: Substring) -> Int? {
        column.split(separator: ":").last.flatMap { Int($0, radix: 16) }
    }
}
