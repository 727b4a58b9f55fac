internal import CSystemShims

extension FileDescriptor {
    /// How many bytes this pipe (or FIFO) still holds, once every writer has closed it: all it
    /// will ever give (unless another reader takes some first). Nil while a writer may still
    /// write, for a descriptor that is not a pipe, or when the kernel cannot say.
    ///
    /// Wraps `fstat`, `poll` (no wait, `POLLHUP`) and `ioctl(FIONREAD)` in that order
    /// (`csystem_final_pipe_bytes`): once no writer is left nothing more comes, so the count
    /// taken after is final. What stdin's journal uses to say where the read ends before the
    /// last bytes move (`OutboxClaim.markReadEnded(byteCount:)`).
    public var finalPipeByteCount: Int? {
        let count = csystem_final_pipe_bytes(rawValue)
        return count < 0 ? nil : Int(count)
    }
}
