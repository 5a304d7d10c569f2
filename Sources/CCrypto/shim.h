// OpenSSL's libcrypto, for SHA-256 only: its one-shot SHA256() uses the CPU's SHA extensions
// where they exist (about 1.5 GB/s here, five times a portable implementation); the EVP digest
// interface hashes data that arrives in pieces (`SHA256Stream`).
#include <openssl/sha.h>
#include <openssl/evp.h>
