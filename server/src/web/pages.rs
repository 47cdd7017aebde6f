//! The site's pages: home, log in, sign up (open contests), account setup (roster and admin
//! accounts), log out, "my bots" with versions and states, a version's logs and files, API
//! tokens. Everything private answers 404 to anyone but its owner.

use askama::Template;
use axum::Form;
use axum::extract::{Multipart, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::auth::{self, ClientIp, Session};
use super::final_report::ContestNotice;
use super::forms::read_upload;
use super::html::{self, Layout, Person, Viewer};
use super::known_device;
use super::{Shared, WebError};
use crate::accounts::passwords::{dummy_hash, hash_password_async, verify_password_async};
use crate::accounts::roster::valid_display_name;
use crate::accounts::{Secret, check_new_password};
use crate::config::{Registration, valid_login_name};
use crate::ladder::versions::VersionState;
use crate::storage::{ApiTokenInfo, Bot, StorageError, User, Version, secret_digest};

/// The layout of a page of this contest titled `title`, for `session`'s user if any.
fn layout<'a>(
    state: &'a Shared,
    title: impl Into<String>,
    session: Option<&'a Session>,
) -> Layout<'a> {
    Layout::new(&state.contest.name, title, session.map(Viewer::of))
}

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage<'a> {
    layout: Layout<'a>,
    banner: ContestNotice,
    game: &'a str,
    seats: usize,
    languages: String,
    max_upload: String,
    decision_ms: u64,
    bank_ms: u64,
    /// An assignment's deadline (its contests have no leaderboard).
    deadline: Option<String>,
    signed_in: bool,
    open_registration: bool,
}

#[derive(Template)]
#[template(path = "login.html")]
struct LoginPage<'a> {
    layout: Layout<'a>,
    message: &'a str,
    name: &'a str,
}

#[derive(Template)]
#[template(path = "register.html")]
struct RegisterPage<'a> {
    layout: Layout<'a>,
    message: &'a str,
    name: &'a str,
    display: &'a str,
}

#[derive(Template)]
#[template(path = "setup.html")]
struct SetupPage<'a> {
    layout: Layout<'a>,
    message: &'a str,
    user: &'a User,
    token: &'a str,
}

#[derive(Template)]
#[template(path = "my_bots.html")]
struct MyBotsPage<'a> {
    layout: Layout<'a>,
    message: &'a str,
    banner: ContestNotice,
    me: Person<'a>,
    assignment: bool,
    is_admin: bool,
    bots: Vec<BotVersions>,
    frozen: bool,
    languages: Vec<&'a str>,
    bots_per_user: u64,
    max_upload: String,
    csrf: &'a str,
    tokens: Vec<TokenRow>,
}

struct BotVersions {
    name: String,
    versions: Vec<VersionLine>,
}

struct VersionLine {
    number: i64,
    language: String,
    source_name: String,
    uploaded: String,
    state: &'static str,
}

struct TokenRow {
    label: String,
    created: String,
    last_used: String,
    /// The revoke form's action.
    revoke: String,
}

impl TokenRow {
    fn of(t: ApiTokenInfo) -> TokenRow {
        TokenRow {
            created: html::time(t.created_at),
            last_used: t
                .last_used_at
                .map(html::time)
                .unwrap_or_else(|| "never".into()),
            revoke: format!("/tokens/{}/revoke", t.id),
            label: t.label,
        }
    }
}

#[derive(Template)]
#[template(path = "version.html")]
struct VersionPage<'a> {
    layout: Layout<'a>,
    bot: &'a str,
    v: &'a Version,
    uploaded: String,
    /// "1 file, 2 KiB".
    size: String,
    files: Vec<FileRow>,
}

struct FileRow {
    path: String,
    /// The path percent-encoded for the file's address.
    url: String,
    size: u64,
}

#[derive(Template)]
#[template(path = "new_token.html")]
struct NewTokenPage<'a> {
    layout: Layout<'a>,
    token: &'a str,
    host: &'a str,
}

/// A redirect (303: the browser follows with GET) that also sets a cookie.
fn redirect_with_cookie(to: &str, cookie: HeaderValue) -> Response {
    let mut response = Redirect::to(to).into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    response
}

/// The session, or a redirect to the login page.
async fn require_session(state: &Shared, headers: &HeaderMap) -> Result<Session, Response> {
    match auth::session(state, headers).await {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err(Redirect::to("/login").into_response()),
        Err(e) => Err(e.into_response()),
    }
}

pub async fn home(State(state): State<Shared>, headers: HeaderMap) -> Result<Response, WebError> {
    // The home page asks the database only for these two, at once and each waiting at most
    // half a second: it answers while the database is away.
    let (session, banner) = tokio::join!(
        auth::visitor(&state, &headers),
        super::final_report::public_notice(&state),
    );
    let c = &state.contest;
    let languages: Vec<&str> = c.languages.iter().map(|l| l.as_str()).collect();
    let page = HomePage {
        layout: layout(&state, "Home", session.as_ref()),
        banner,
        game: c.settings.variant.name(),
        seats: c.seats,
        languages: languages.join(", "),
        max_upload: html::bytes(c.uploads.max_bytes),
        decision_ms: c.time.decision_ms,
        bank_ms: c.time.bank_ms,
        deadline: c.assignment.as_ref().map(|a| html::time(a.deadline_ms)),
        signed_in: session.is_some(),
        open_registration: matches!(c.accounts.registration, Registration::Open),
    };
    Ok(html::page(&page))
}

fn login_page(state: &Shared, message: &str, name: &str) -> Response {
    html::page(&LoginPage {
        layout: layout(state, "Log in", None),
        message,
        name,
    })
}

pub async fn login_form(State(state): State<Shared>) -> Response {
    login_page(&state, "", "")
}

#[derive(Deserialize)]
pub struct LoginForm {
    name: String,
    password: String,
}

/// Checks a name and password under the lockout (`accounts/login_guard.rs`); the account on
/// success. Shared with the API's token request, which `accept`s an API token as a known
/// client too.
pub async fn authenticate(
    state: &Shared,
    ip: &str,
    headers: &HeaderMap,
    accept: known_device::Accept,
    name: &str,
    password: &str,
) -> Result<Option<User>, WebError> {
    // Only real login names become keys: arbitrary strings would let one client fill the
    // lockout's memory with long keys.
    let account_key = if valid_login_name(name) {
        format!("login:{name}")
    } else {
        "login:(invalid)".to_string()
    };
    let record = if valid_login_name(name) {
        state.db.login_record(name).await?
    } else {
        None
    };
    let user_id = record.as_ref().map(|(user, _)| user.id);
    let client = known_device::client(state, headers, ip, user_id, accept).await;
    state
        .login_guard
        .admit(&state.login_limiter, &client, &account_key)
        .map_err(WebError::too_many)?;
    let (user, hash) = match record {
        Some((user, Some(hash))) => (Some(user), hash),
        // Unknown name, or an account not set up yet: the same work and the same answer.
        _ => (None, dummy_hash().to_string()),
    };
    let ok = verify_password_async(password, &hash).await;
    let user = user.filter(|_| ok);
    state
        .login_guard
        .record(&client, &account_key, user.is_some());
    Ok(user)
}

pub async fn login(
    State(state): State<Shared>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> Result<Response, WebError> {
    auth::check_origin(&headers)?;
    let accept = known_device::Accept::Cookie;
    match authenticate(&state, &ip, &headers, accept, &form.name, &form.password).await? {
        Some(user) => logged_in(&state, &user).await,
        None => Ok((
            StatusCode::UNAUTHORIZED,
            login_page(&state, "Wrong name or password.", &form.name),
        )
            .into_response()),
    }
}

/// Starts `user`'s session and makes this browser one of their known devices; on to "My
/// bots".
async fn logged_in(state: &Shared, user: &User) -> Result<Response, WebError> {
    let session = auth::start_session(state, user).await?;
    let device = known_device::set_cookie(state, user.id)?;
    let mut response = redirect_with_cookie("/bots", session);
    response.headers_mut().append(header::SET_COOKIE, device);
    Ok(response)
}

fn register_page(state: &Shared, message: &str, name: &str, display: &str) -> Response {
    html::page(&RegisterPage {
        layout: layout(state, "Sign up", None),
        message,
        name,
        display,
    })
}

fn open_registration(state: &Shared) -> Result<(), WebError> {
    match state.contest.accounts.registration {
        Registration::Open => Ok(()),
        Registration::Roster(_) => Err(WebError::not_found()),
    }
}

pub async fn register_form(State(state): State<Shared>) -> Result<Response, WebError> {
    open_registration(&state)?;
    Ok(register_page(&state, "", "", ""))
}

#[derive(Deserialize)]
pub struct RegisterForm {
    name: String,
    #[serde(default)]
    display_name: String,
    password: String,
    confirm: String,
}

/// Hashes a new password off the async threads, after checking it and its confirmation.
async fn new_password_hash(
    password: &str,
    confirm: &str,
) -> Result<Result<String, String>, WebError> {
    if let Err(why) = check_new_password(password) {
        return Ok(Err(why.to_string()));
    }
    if password != confirm {
        return Ok(Err("the two passwords differ".into()));
    }
    hash_password_async(password)
        .await
        .map(Ok)
        .map_err(WebError::internal)
}

pub async fn register(
    State(state): State<Shared>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    Form(form): Form<RegisterForm>,
) -> Result<Response, WebError> {
    open_registration(&state)?;
    auth::check_origin(&headers)?;
    state
        .login_limiter
        .check(&format!("ip:{ip}"))
        .map_err(WebError::too_many)?;
    let name = form.name.trim();
    let display = match form.display_name.trim() {
        "" => name,
        d => d,
    };
    let again = |message: &str| {
        Ok((
            StatusCode::UNPROCESSABLE_ENTITY,
            register_page(&state, message, name, display),
        )
            .into_response())
    };
    if !valid_login_name(name) {
        return again(
            "A login name is 1 to 32 of a-z, 0-9, _ . -, starting with a letter or digit.",
        );
    }
    if !valid_display_name(display) {
        return again("A display name is 1 to 100 printable characters.");
    }
    let hash = match new_password_hash(&form.password, &form.confirm).await? {
        Ok(h) => h,
        Err(why) => return again(&format!("Password: {why}.")),
    };
    match state
        .db
        .create_user(name, display, Some(&hash), None, false)
        .await
    {
        Ok(user) => logged_in(&state, &user).await,
        Err(StorageError::Conflict) => again("That name is taken."),
        Err(e) => Err(e.into()),
    }
}

fn setup_page(state: &Shared, message: &str, user: &User, token: &str) -> Response {
    html::page(&SetupPage {
        layout: layout(state, "Set up", None),
        message,
        user,
        token,
    })
}

fn used_link() -> WebError {
    WebError::new(
        StatusCode::NOT_FOUND,
        "this setup link was used already or is not valid; ask the organizer for a new one",
    )
}

fn well_formed_token(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

pub async fn setup_form(
    State(state): State<Shared>,
    Path(token): Path<String>,
) -> Result<Response, WebError> {
    if !well_formed_token(&token) {
        return Err(used_link());
    }
    let user = state
        .db
        .user_by_setup_token(&secret_digest(&token))
        .await?
        .ok_or_else(used_link)?;
    Ok(setup_page(&state, "", &user, &token))
}

#[derive(Deserialize)]
pub struct SetupForm {
    token: String,
    password: String,
    confirm: String,
}

pub async fn setup(
    State(state): State<Shared>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    Form(form): Form<SetupForm>,
) -> Result<Response, WebError> {
    auth::check_origin(&headers)?;
    state
        .login_limiter
        .check(&format!("ip:{ip}"))
        .map_err(WebError::too_many)?;
    if !well_formed_token(&form.token) {
        return Err(used_link());
    }
    let digest = secret_digest(&form.token);
    let user = state
        .db
        .user_by_setup_token(&digest)
        .await?
        .ok_or_else(used_link)?;
    let hash = match new_password_hash(&form.password, &form.confirm).await? {
        Ok(h) => h,
        Err(why) => {
            let page = setup_page(&state, &format!("Password: {why}."), &user, &form.token);
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, page).into_response());
        }
    };
    // Spent in one statement: of two racing requests, one wins.
    let user = state
        .db
        .use_setup_token(&digest, &hash)
        .await?
        .ok_or_else(used_link)?;
    logged_in(&state, &user).await
}

#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    pub csrf: String,
}

pub async fn logout(
    State(state): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Result<Response, WebError> {
    auth::check_origin(&headers)?;
    if let Some(session) = auth::session(&state, &headers).await? {
        session.check_csrf(&form.csrf)?;
        state.db.delete_session(&session.id_hash).await?;
    }
    Ok(redirect_with_cookie("/", auth::clear_cookie(&state)?))
}

pub async fn my_bots(State(state): State<Shared>, headers: HeaderMap) -> Response {
    let session = match require_session(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    match my_bots_page(&state, &session, "").await {
        Ok(page) => page,
        Err(e) => e.into_response(),
    }
}

async fn my_bots_page(
    state: &Shared,
    session: &Session,
    message: &str,
) -> Result<Response, WebError> {
    let user = session.user();
    let mut bots = Vec::new();
    for bot in state.db.bots_of(user.id).await? {
        let versions = state.db.versions_of(bot.id).await?;
        bots.push(BotVersions {
            versions: versions
                .into_iter()
                .map(|v| VersionLine {
                    number: v.number,
                    uploaded: html::time(v.created_at),
                    state: v.state.as_str(),
                    language: v.language,
                    source_name: v.source_name,
                })
                .collect(),
            name: bot.name,
        });
    }
    let frozen = state.db.frozen_at().await?.is_some();
    let banner = super::final_report::contest_notice(state).await;
    let tokens = state.db.api_tokens_of(user.id).await?;
    let policy = state.submissions.policy();
    Ok(html::page(&MyBotsPage {
        layout: layout(state, "My bots", Some(session)),
        message,
        banner,
        me: html::person(&user.name, &user.display_name),
        assignment: state.contest.assignment.is_some(),
        is_admin: user.is_admin,
        bots,
        frozen,
        languages: state
            .submissions
            .languages()
            .iter()
            .map(|l| l.as_str())
            .collect(),
        bots_per_user: policy.bots_per_user,
        max_upload: html::bytes(policy.max_bytes),
        csrf: &session.record.csrf_token,
        tokens: tokens.into_iter().map(TokenRow::of).collect(),
    }))
}

pub async fn upload(
    State(state): State<Shared>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    multipart: Multipart,
) -> Response {
    let session = match require_session(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    match upload_inner(&state, &ip, &headers, &session, multipart).await {
        Ok((bot, version)) => {
            Redirect::to(&format!("/bots/{}/versions/{}", bot.name, version.number)).into_response()
        }
        Err(e) if e.status.is_client_error() && e.status != StatusCode::FORBIDDEN => {
            // Shown above the form, which keeps what the page had.
            let status = e.status;
            match my_bots_page(&state, &session, &format!("Upload refused: {}", e.message)).await {
                Ok(page) => (status, page).into_response(),
                Err(e) => e.into_response(),
            }
        }
        Err(e) => e.into_response(),
    }
}

async fn upload_inner(
    state: &Shared,
    ip: &str,
    headers: &HeaderMap,
    session: &Session,
    multipart: Multipart,
) -> Result<(Bot, Version), WebError> {
    auth::check_origin(headers)?;
    let form = read_upload(multipart).await?;
    session.check_csrf(form.field("csrf"))?;
    let user = session.user();
    state
        .upload_limiter
        .check_all(&[&format!("ip:{ip}"), &format!("user:{}", user.id)])
        .map_err(WebError::too_many)?;
    let (file_name, bytes) = form
        .file
        .clone()
        .ok_or_else(|| WebError::bad_request("choose a file to upload"))?;
    Ok(state
        .submissions
        .submit(
            user,
            form.field("bot").trim(),
            form.field("language"),
            &file_name,
            bytes,
        )
        .await?)
}

/// The bot and version if they are `user`'s; 404 otherwise (also when they exist but are
/// someone else's).
pub async fn owned_version(
    state: &Shared,
    user: &User,
    bot_name: &str,
    number: &str,
) -> Result<(Bot, Version), WebError> {
    let number: i64 = number
        .trim_start_matches('v')
        .parse()
        .map_err(|_| WebError::not_found())?;
    let bot = state
        .db
        .bot_by_name(bot_name)
        .await?
        .filter(|b| b.owner_id == user.id)
        .ok_or_else(WebError::not_found)?;
    let version = state
        .db
        .version(bot.id, number)
        .await?
        .ok_or_else(WebError::not_found)?;
    Ok((bot, version))
}

pub async fn version_page(
    State(state): State<Shared>,
    headers: HeaderMap,
    Path((name, number)): Path<(String, String)>,
) -> Response {
    let session = match require_session(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let result = async {
        let (bot, v) = owned_version(&state, session.user(), &name, &number).await?;
        let files = state.submissions.files(&v).map_err(WebError::internal)?;
        let files = files
            .into_iter()
            .map(|(path, size)| FileRow {
                url: url_path(&path),
                path,
                size,
            })
            .collect();
        let size = html::bytes(v.unpacked_bytes.max(0) as u64);
        let size = match v.file_count {
            1 => format!("1 file, {size}"),
            n => format!("{n} files, {size}"),
        };
        let page = html::page(&VersionPage {
            layout: layout(
                &state,
                format!("{} v{}", bot.name, v.number),
                Some(&session),
            ),
            bot: &bot.name,
            v: &v,
            uploaded: html::time(v.created_at),
            size,
            files,
        });
        Ok::<_, WebError>((page, v.state))
    }
    .await;
    match result {
        Ok((page, version_state)) => {
            let mut response = page;
            // Until built and checked (seconds), the page reloads itself to show the logs:
            // the `Refresh` header, since the pages carry no script.
            if matches!(
                version_state,
                VersionState::Uploaded | VersionState::Building
            ) {
                response
                    .headers_mut()
                    .insert(header::REFRESH, HeaderValue::from_static("3"));
            }
            response
        }
        Err(e) => e.into_response(),
    }
}

/// A relative path with each segment percent-encoded for a URL.
pub fn url_path(path: &str) -> String {
    path.split('/')
        .map(|seg| {
            seg.bytes()
                .map(|b| {
                    if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                        (b as char).to_string()
                    } else {
                        format!("%{b:02X}")
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A file of a version, as plain text (or bytes), to its owner only.
pub fn file_response(bytes: Vec<u8>) -> Response {
    let kind = if std::str::from_utf8(&bytes).is_ok() {
        "text/plain; charset=utf-8"
    } else {
        "application/octet-stream"
    };
    ([(header::CONTENT_TYPE, kind)], bytes).into_response()
}

pub async fn version_file(
    State(state): State<Shared>,
    headers: HeaderMap,
    Path((name, number, path)): Path<(String, String, String)>,
) -> Response {
    let session = match require_session(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let result = async {
        let (_, v) = owned_version(&state, session.user(), &name, &number).await?;
        state
            .submissions
            .read_file(&v, &path)
            .map_err(WebError::internal)?
            .ok_or_else(WebError::not_found)
    }
    .await;
    match result {
        Ok(bytes) => file_response(bytes),
        Err(e) => e.into_response(),
    }
}

#[derive(Deserialize)]
pub struct TokenForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    label: String,
}

/// Makes an API token for the account; its one showing.
pub async fn new_token(state: &Shared, user: &User, label: &str) -> Result<String, WebError> {
    let label = label.trim();
    if !valid_display_name(label) {
        return Err(WebError::bad_request(
            "a token's label is 1 to 100 printable characters",
        ));
    }
    if state.db.api_tokens_of(user.id).await?.len() >= 20 {
        return Err(WebError::new(
            StatusCode::CONFLICT,
            "an account has at most 20 API tokens; revoke one first",
        ));
    }
    let secret = Secret::new()?;
    state
        .db
        .create_api_token(user.id, &secret.digest, label)
        .await?;
    Ok(secret.token)
}

pub async fn create_token(
    State(state): State<Shared>,
    headers: HeaderMap,
    Form(form): Form<TokenForm>,
) -> Response {
    let session = match require_session(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let result = async {
        auth::check_origin(&headers)?;
        session.check_csrf(&form.csrf)?;
        new_token(&state, session.user(), &form.label).await
    }
    .await;
    match result {
        Ok(token) => {
            let host = headers
                .get(header::HOST)
                .and_then(|h| h.to_str().ok())
                .unwrap_or("127.0.0.1:8080");
            html::page(&NewTokenPage {
                layout: layout(&state, "New API token", Some(&session)),
                token: &token,
                host,
            })
        }
        Err(e) => e.into_response(),
    }
}

pub async fn revoke_token(
    State(state): State<Shared>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Form(form): Form<CsrfForm>,
) -> Response {
    let session = match require_session(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    let result = async {
        auth::check_origin(&headers)?;
        session.check_csrf(&form.csrf)?;
        if state.db.delete_api_token(session.user().id, id).await? {
            Ok(())
        } else {
            Err(WebError::not_found())
        }
    }
    .await;
    match result {
        Ok(()) => Redirect::to("/bots").into_response(),
        Err(e) => e.into_response(),
    }
}
