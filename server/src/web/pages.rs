//! The site's pages: home, log in, sign up (open contests), account setup (roster and admin
//! accounts), log out, "my bots" with versions and states, a version's logs and files, API
//! tokens. Everything private answers 404 to anyone but its owner.

use axum::Form;
use axum::extract::{Multipart, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde::Deserialize;

use super::auth::{self, ClientIp, Session};
use super::forms::read_upload;
use super::html::{self, Viewer, csrf_field, esc, notice};
use super::known_device;
use super::{Shared, WebError};
use crate::accounts::passwords::{dummy_hash, hash_password_async, verify_password_async};
use crate::accounts::roster::valid_display_name;
use crate::accounts::{Secret, check_new_password};
use crate::config::{Registration, valid_login_name};
use crate::ladder::versions::VersionState;
use crate::storage::{Bot, StorageError, User, Version, secret_digest};

fn viewer(session: &Session) -> Viewer<'_> {
    Viewer {
        user: session.user(),
        csrf: &session.record.csrf_token,
    }
}

fn render(state: &Shared, title: &str, session: Option<&Session>, body: &str) -> Html<String> {
    html::page(&state.contest.name, title, session.map(viewer), body)
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
    let join = match (&session, &c.accounts.registration) {
        (Some(_), _) => "<p><a href=\"/bots\">Your bots</a></p>".to_string(),
        (None, Registration::Open) => {
            "<p><a href=\"/login\">Log in</a> or <a href=\"/register\">sign up</a> to upload a bot.</p>"
                .to_string()
        }
        (None, Registration::Roster(_)) => "<p><a href=\"/login\">Log in</a> with the account your organizer set up for you (your setup link chooses its password).</p>".to_string(),
    };
    let body = format!(
        "{banner}<section class=\"panel\"><h2>The contest</h2>\
         <p>Game: <b>{}</b>, {} seats. Languages: {}.</p>\
         <p>Uploads: one source file or a .zip / .tar.gz archive of at most {}; \
         every decision within {} ms (plus a bank of {} ms).</p>\
         {board}{join}</section>",
        esc(c.settings.variant.name()),
        c.seats,
        esc(&languages.join(", ")),
        html::bytes(c.uploads.max_bytes),
        c.time.decision_ms,
        c.time.bank_ms,
        board = match &c.assignment {
            // An assignment has no leaderboard: each student sees their own grades.
            Some(a) => format!(
                "<p>An assignment: every upload is graded against the reference bots until {}. <a href=\"/grades\">My grades</a></p>",
                esc(&html::time(a.deadline_ms))
            ),
            None => "<p><a href=\"/leaderboard\">The leaderboard</a></p>".to_string(),
        },
    );
    Ok(render(&state, "Home", session.as_ref(), &body).into_response())
}

fn login_body(message: &str, name: &str) -> String {
    format!(
        "<section class=\"panel\"><h2>Log in</h2>{}\
         <form method=\"post\" action=\"/login\" class=\"stack\">\
         <label>Name <input name=\"name\" value=\"{}\" autocomplete=\"username\" required></label>\
         <label>Password <input name=\"password\" type=\"password\" autocomplete=\"current-password\" required></label>\
         <button type=\"submit\">Log in</button></form></section>",
        notice(message),
        esc(name)
    )
}

pub async fn login_form(State(state): State<Shared>) -> Html<String> {
    render(&state, "Log in", None, &login_body("", ""))
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
            render(
                &state,
                "Log in",
                None,
                &login_body("Wrong name or password.", &form.name),
            ),
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

fn register_body(message: &str, name: &str, display: &str) -> String {
    format!(
        "<section class=\"panel\"><h2>Sign up</h2>{}\
         <form method=\"post\" action=\"/register\" class=\"stack\">\
         <label>Login name (a-z, 0-9, _ . -) <input name=\"name\" value=\"{}\" autocomplete=\"username\" required maxlength=\"32\"></label>\
         <label>Display name <input name=\"display_name\" value=\"{}\" maxlength=\"100\"></label>\
         <label>Password (at least 8 characters) <input name=\"password\" type=\"password\" autocomplete=\"new-password\" required></label>\
         <label>Password again <input name=\"confirm\" type=\"password\" autocomplete=\"new-password\" required></label>\
         <button type=\"submit\">Sign up</button></form></section>",
        notice(message),
        esc(name),
        esc(display)
    )
}

fn open_registration(state: &Shared) -> Result<(), WebError> {
    match state.contest.accounts.registration {
        Registration::Open => Ok(()),
        Registration::Roster(_) => Err(WebError::not_found()),
    }
}

pub async fn register_form(State(state): State<Shared>) -> Result<Html<String>, WebError> {
    open_registration(&state)?;
    Ok(render(&state, "Sign up", None, &register_body("", "", "")))
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
        return Ok(Err(why));
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
            render(
                &state,
                "Sign up",
                None,
                &register_body(message, name, display),
            ),
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

fn setup_body(message: &str, user: &User, token: &str) -> String {
    format!(
        "<section class=\"panel\"><h2>Set up your account</h2>{}\
         <p>Account <b>{}</b> ({}). Choose a password; this link then stops working.</p>\
         <form method=\"post\" action=\"/setup\" class=\"stack\">\
         <input type=\"hidden\" name=\"token\" value=\"{}\">\
         <label>Password (at least 8 characters) <input name=\"password\" type=\"password\" autocomplete=\"new-password\" required></label>\
         <label>Password again <input name=\"confirm\" type=\"password\" autocomplete=\"new-password\" required></label>\
         <button type=\"submit\">Set the password</button></form></section>",
        notice(message),
        esc(&user.name),
        esc(&user.display_name),
        esc(token)
    )
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
) -> Result<Html<String>, WebError> {
    if !well_formed_token(&token) {
        return Err(used_link());
    }
    let user = state
        .db
        .user_by_setup_token(&secret_digest(&token))
        .await?
        .ok_or_else(used_link)?;
    Ok(render(
        &state,
        "Set up",
        None,
        &setup_body("", &user, &token),
    ))
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
            let body = setup_body(&format!("Password: {why}."), &user, &form.token);
            return Ok((
                StatusCode::UNPROCESSABLE_ENTITY,
                render(&state, "Set up", None, &body),
            )
                .into_response());
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

fn state_badge(state: crate::ladder::versions::VersionState) -> String {
    format!("<span class=\"state state-{0}\">{0}</span>", state.as_str())
}

pub async fn my_bots(State(state): State<Shared>, headers: HeaderMap) -> Response {
    let session = match require_session(&state, &headers).await {
        Ok(s) => s,
        Err(r) => return r,
    };
    match my_bots_body(&state, &session, "").await {
        Ok(body) => render(&state, "My bots", Some(&session), &body).into_response(),
        Err(e) => e.into_response(),
    }
}

async fn my_bots_body(
    state: &Shared,
    session: &Session,
    message: &str,
) -> Result<String, WebError> {
    let user = session.user();
    let bots = state.db.bots_of(user.id).await?;
    let frozen = state.db.frozen_at().await?.is_some();
    let mut body = String::new();
    body.push_str(&notice(message));
    body.push_str(&super::final_report::contest_notice(state).await);
    body.push_str(&format!(
        "<section class=\"panel\"><h2>My bots</h2>\
         <p id=\"account\">Signed in as {}; others see you by that name on the leaderboard \
         and your bots' pages.</p>",
        html::person(&user.name, &user.display_name)
    ));
    if state.contest.assignment.is_some() {
        body.push_str(&format!(
            "<p><a href=\"/grades\">My grades</a>: every upload is graded against the reference bots.{}</p>",
            if user.is_admin {
                " <a href=\"/admin/gradebook\">The gradebook</a>"
            } else {
                ""
            }
        ));
    }
    if bots.is_empty() {
        body.push_str("<p class=\"muted\">No bot yet: upload one below.</p>");
    }
    for bot in &bots {
        body.push_str(&format!("<h3>{}</h3>", esc(&bot.name)));
        body.push_str(
            "<table class=\"list\"><tr><th>Version</th><th>Language</th><th>Upload</th>\
             <th>Uploaded</th><th>State</th></tr>",
        );
        for v in state.db.versions_of(bot.id).await? {
            body.push_str(&format!(
                "<tr><td><a href=\"/bots/{}/versions/{}\">v{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                esc(&bot.name),
                v.number,
                v.number,
                esc(&v.language),
                esc(&v.source_name),
                html::time(v.created_at),
                state_badge(v.state)
            ));
        }
        body.push_str("</table>");
    }
    body.push_str("</section>");

    let options: String = state
        .submissions
        .languages()
        .iter()
        .map(|l| format!("<option value=\"{l}\">{l}</option>"))
        .collect();
    let datalist: String = bots
        .iter()
        .map(|b| format!("<option value=\"{}\">", esc(&b.name)))
        .collect();
    if frozen {
        body.push_str(
            "<section class=\"panel\"><h2>Upload a version</h2>\
             <p>Uploads are frozen: the organizer has closed submissions for the final round robin.</p></section>",
        );
    } else {
        body.push_str(&format!(
            "<section class=\"panel\"><h2>Upload a version</h2>\
             <p class=\"muted\">A new bot name creates a bot (at most {} per account); an existing one gets a new version. \
             One source file, or a .zip / .tar.gz archive, at most {}.</p>\
             <form method=\"post\" action=\"/bots/upload\" enctype=\"multipart/form-data\" class=\"stack\">{}\
             <label>Bot name <input name=\"bot\" list=\"my-bots\" required maxlength=\"32\"></label>\
             <datalist id=\"my-bots\">{datalist}</datalist>\
             <label>Language <select name=\"language\">{options}</select></label>\
             <label>File <input type=\"file\" name=\"file\" required></label>\
             <button type=\"submit\">Upload</button></form></section>",
            state.submissions.policy().bots_per_user,
            html::bytes(state.submissions.policy().max_bytes),
            csrf_field(&session.record.csrf_token)
        ));
    }
    let tokens = state.db.api_tokens_of(user.id).await?;
    body.push_str("<section class=\"panel\"><h2>API tokens</h2>");
    if !tokens.is_empty() {
        body.push_str("<table class=\"list\"><tr><th>Label</th><th>Created</th><th>Last used</th><th></th></tr>");
        for t in &tokens {
            body.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td><form method=\"post\" action=\"/tokens/{}/revoke\" class=\"inline\">{}<button type=\"submit\">Revoke</button></form></td></tr>",
                esc(&t.label),
                html::time(t.created_at),
                t.last_used_at.map(html::time).unwrap_or_else(|| "never".into()),
                t.id,
                csrf_field(&session.record.csrf_token)
            ));
        }
        body.push_str("</table>");
    }
    body.push_str(&format!(
        "<form method=\"post\" action=\"/tokens\" class=\"stack\">{}\
         <label>Label <input name=\"label\" required maxlength=\"100\" placeholder=\"laptop\"></label>\
         <button type=\"submit\">New API token</button></form></section>",
        csrf_field(&session.record.csrf_token)
    ));
    Ok(body)
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
            match my_bots_body(&state, &session, &format!("Upload refused: {}", e.message)).await {
                Ok(body) => {
                    (status, render(&state, "My bots", Some(&session), &body)).into_response()
                }
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
        let mut list = String::new();
        for (path, size) in &files {
            list.push_str(&format!(
                "<tr><td><a href=\"/bots/{}/versions/{}/files/{}\">{}</a></td><td>{size}</td></tr>",
                esc(&bot.name),
                v.number,
                esc(&url_path(path)),
                esc(path)
            ));
        }
        let log = |title: &str, text: &str| {
            if text.is_empty() {
                format!("<h3>{title}</h3><p class=\"muted\">Nothing yet.</p>")
            } else {
                format!("<h3>{title}</h3><pre class=\"log\">{}</pre>", esc(text))
            }
        };
        let body = format!(
            "<section class=\"panel\"><h2>{} v{}</h2>\
             <p>{} · {} · uploaded {} · {} · sha256 <code>{}</code></p>\
             <p>State: {}</p>{}{}</section>\
             <section class=\"panel\"><h2>Files</h2><table class=\"list\"><tr><th>Path</th><th>Bytes</th></tr>{list}</table></section>",
            esc(&bot.name),
            v.number,
            esc(&v.language),
            esc(&v.source_name),
            html::time(v.created_at),
            match v.file_count {
                1 => format!("1 file, {}", html::bytes(v.unpacked_bytes.max(0) as u64)),
                n => format!("{n} files, {}", html::bytes(v.unpacked_bytes.max(0) as u64)),
            },
            esc(&v.source_sha256),
            state_badge(v.state),
            log("Build log", &v.build_log),
            log("Check log", &v.check_log),
        );
        let page = render(&state, &format!("{} v{}", bot.name, v.number), Some(&session), &body);
        Ok::<_, WebError>((page, v.state))
    }
    .await;
    match result {
        Ok((page, version_state)) => {
            let mut response = page.into_response();
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
            let body = format!(
                "<section class=\"panel\"><h2>New API token</h2>\
                 <p>Copy it now: it is shown only this once (the server keeps only its hash).</p>\
                 <p><code class=\"token\">{token}</code></p>\
                 <p>Upload a version from a terminal:</p>\
                 <pre class=\"log\">curl -H 'Authorization: Bearer {token}' -F file=@bot.py -F language=python http://{}/api/bots/BOTNAME/versions</pre>\
                 <p><a href=\"/bots\">Back to my bots</a></p></section>",
                esc(host)
            );
            render(&state, "New API token", Some(&session), &body).into_response()
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
