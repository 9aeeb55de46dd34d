-- The bench's requests, chosen by the arguments after "--" on wrk's command line:
--   path            the URL as given (a static request, wrk's fastest mode)
--   get <maxId>     GET /v1/pets/{random id in 1..maxId}
--   create          POST /v1/pets with a small JSON body
--   create-keyed <run>  the same, each request with an Idempotency-Key of its own (<run>-<thread>-<n>):
--                   every request creates, none replays
-- A last argument "statuses" counts the answers per status class and prints them. wrk then
-- parses every response in Lua, which costs throughput, so only the smoke run asks for it.

local threads = {}

function setup(thread)
  thread:set("seed", #threads + 1)
  table.insert(threads, thread)
end

local function count(status)
  local key = "c" .. math.floor(status / 100)
  _G[key] = (_G[key] or 0) + 1
end

function init(args)
  if args[1] == "get" then
    local maxId = tonumber(args[2])
    -- Each thread has its own Lua state: seed them apart so they ask for different ids.
    math.randomseed(os.time() * 100 + seed)
    request = function()
      return wrk.format("GET", "/v1/pets/" .. math.random(1, maxId))
    end
  elseif args[1] == "create" or args[1] == "create-keyed" then
    wrk.method = "POST"
    wrk.body = '{"name":"Bench","categoryId":1}'
    wrk.headers["Content-Type"] = "application/json"
  end
  if args[1] == "create-keyed" then
    local prefix = args[2] .. "-" .. seed .. "-"
    local n = 0
    request = function()
      n = n + 1
      wrk.headers["Idempotency-Key"] = prefix .. n
      return wrk.format()
    end
  end
  if args[#args] == "statuses" then
    response = function(status) count(status) end
  end
end

-- Prints only when the threads counted something, i.e. when "statuses" was asked for.
function done()
  local totals = {}
  for _, thread in ipairs(threads) do
    for class = 1, 5 do
      totals[class] = (totals[class] or 0) + (thread:get("c" .. class) or 0)
    end
  end
  if totals[1] + totals[2] + totals[3] + totals[4] + totals[5] == 0 then return end
  io.write(string.format("Statuses: 1xx=%d 2xx=%d 3xx=%d 4xx=%d 5xx=%d\n", totals[1], totals[2], totals[3], totals[4], totals[5]))
end
