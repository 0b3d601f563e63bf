"""Everything the bot keeps in Redis, one module per concern: `keys` (every key's name),
`tables` (games and each server's index), `panels`, `locks`, `stats`, `settings`,
`ratelimit`, `clock` (the test clock's offset), `layout` (one-off key moves); `errors`
(the guard every call goes through), `urls` and `clients` (connecting) and `embedded`
(the Redis the bot starts itself). No module outside this package names a key or
calls Redis directly."""
